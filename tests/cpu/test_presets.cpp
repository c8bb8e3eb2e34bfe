// Presets (app/core/preset.h) on their own and on the command line: every op's parameters survive a
// write and a read bit for bit; bad files are refused naming the JSON path and the limit (exit 2);
// unknown keys are warned about by name; --print-command paints the same picture as its flags.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "app/core/preset.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "tests/support/image_file.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

using test::run;

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/kc_presets_" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(Presets, EveryOpsParametersSurviveAWriteAndARead) {
    std::mt19937 rng(7);
    for (const OpInfo& op : op_registry()) {
        SCOPED_TRACE(std::string(op.name));
        Preset p;
        p.job.op = op.index;
        p.job.params.width = 1 + int(rng() % 2000), p.job.params.height = 1 + int(rng() % 2000);
        for (const ParamSpec& s : kParams) {
            double v = std::uniform_real_distribution<double>(s.lo, s.hi)(rng);
            if (s.whole()) v = std::floor(v / s.multiple_of) * s.multiple_of;
            ASSERT_FALSE(set_param(p.job.params, s.name, v));
        }
        p.job.launch = {.block = {12, 5, 2}, .grid = {3, 4, 1}, .auto_grid = false, .mapping = Mapping::Columns};
        p.job.view = View::Warp;
        p.images = {"a b.png", "c'd.png"};
        p.kernel_source = op.user_code ? "__global__ void k() {}\n" : "";
        p.block_outlines = true, p.inspect = std::pair{3, 4}, p.canvas_zoom = 2.5;
        Preset q;
        std::vector<std::string> warnings;
        ASSERT_FALSE(parse_preset(preset_json(p), q, warnings)) << preset_json(p);
        EXPECT_TRUE(warnings.empty());
        EXPECT_EQ(q.job.op, p.job.op);
        for (const ParamSpec& s : kParams)
            if (uses_param(op, s.name)) {
                EXPECT_EQ(s.read(q.job.params), s.read(p.job.params)) << s.name;
            }
        EXPECT_EQ(q.job.params.width, p.job.params.width);
        EXPECT_EQ(q.job.params.height, p.job.params.height);
        EXPECT_EQ(q.job.launch, p.job.launch);
        EXPECT_EQ(q.job.view, p.job.view);
        EXPECT_EQ(q.images, p.images);
        EXPECT_EQ(q.kernel_source, p.kernel_source);
        EXPECT_EQ(q.block_outlines, p.block_outlines);
        EXPECT_EQ(q.inspect, p.inspect);
        EXPECT_EQ(q.canvas_zoom, p.canvas_zoom);
    }
}

TEST(Presets, BadValuesAreRefusedWithTheirPathAndTheLimit) {
    struct Case {
        std::string json, message;
    };
    const std::string head = R"({"kcanvas_preset": 1, )";
    for (const Case& c : {
             Case{head + R"("launch": {"block": "64x32"}})", "launch.block: 64x32 has 2048 threads, over 1024"},
             Case{head + R"("op": "threshold", "params": {"level": 300}})",
                  "params.level: level 300 is not a whole number from 0 to 256"},
             Case{head + R"("params": {"weight": "lots"}})", "params.weight: weight 'lots' is not a number"},
             Case{head + R"("params": {"variant": "fast"}})",
                  "params.variant: variant 'fast' is not naive, tiled or registers"},
             Case{head + R"("op": "box_blur", "params": {"variant": "registers"}})",
                  "params.variant: variant registers: box_blur has 2 kernels, naive or tiled"},
             Case{head + R"("params": {"matmul-n": 100}})", "params.matmul-n: matmul-n 100 is not a multiple of 16"},
             Case{head + R"("params": {"iter": [1]}})", "params.iter: expected a number, got [1]"},
             Case{head + R"("op": "blur"})", "op: unknown op 'blur'"},
             Case{head + R"("view": "rainbow"})", "view: unknown view 'rainbow'"},
             Case{head + R"("canvas": {"width": 0}})", "canvas.width: 0 is not a whole number from 1 to 16384"},
             Case{head + R"("launch": {"mapping": "spiral"}})", "launch.mapping: unknown mapping 'spiral'"},
             Case{head + R"("launch": {"pixels_per_thread": 3}})", "launch.pixels_per_thread: 3 is not 1 or 4"},
             Case{head + R"("launch": {"grid": "2x"}})", "launch.grid: '2x' is not XxY or XxYxZ"},
             Case{head + R"("launch": 5})", "launch: is not a JSON object"},
             Case{head + R"("overlays": {"inspect": [1]}})", "overlays.inspect: expected [x, y]"},
             Case{head + R"("images": {"b": "b.png"}})", "images.b: needs images.a"},
             Case{R"({"kcanvas_preset": 2})", "kcanvas_preset: version 2 is not the one this kcanvas reads (1)"},
             Case{R"({"op": "gradient"})", "kcanvas_preset: missing"},
             Case{R"({"kcanvas_preset": 1,)", "not valid JSON"},
         }) {
        SCOPED_TRACE(c.json);
        Preset p;
        std::vector<std::string> warnings;
        const auto e = parse_preset(c.json, p, warnings);
        ASSERT_TRUE(e);
        EXPECT_NE(e->find(c.message), std::string::npos) << *e;
        // On the command line: exit 2 with the file's name and the same message, no picture written.
        const std::string path = write_temp("bad.json", c.json), out = ::testing::TempDir() + "/kc_presets_bad.png";
        std::filesystem::remove(out);
        const auto r = run("--headless --backend cpu --preset " + path + " --out " + out);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find("--preset " + path + ": " + c.message), std::string::npos) << r.output;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

TEST(Presets, UnknownKeysAreWarnedAboutByNameAndTheRestApplies) {
    const std::string path = write_temp("unknown.json", R"({"kcanvas_preset": 1, "op": "checkerboard", "colour": "red",
                                       "params": {"cell": 8, "celll": 9}, "launch": {"blok": "8x8"}})");
    const auto r = run("--preset " + path + " --print-command");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const char* key : {"colour", "params.celll", "launch.blok"})
        EXPECT_NE(r.output.find(fmt::format("warning: --preset {}: {}: unknown key, ignored", path, key)),
                  std::string::npos)
            << key << "\n"
            << r.output;
    EXPECT_NE(r.output.find("--op checkerboard"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--cell 8"), std::string::npos) << r.output;
}

// The flags given with --preset win over it; --save-preset writes what the flags say.
TEST(Presets, FlagsOverrideThePresetAndSavePresetWritesThem) {
    const std::string saved = ::testing::TempDir() + "/kc_presets_saved.json";
    std::filesystem::remove(saved);
    ASSERT_EQ(run("--op blend --weight 0.25 --cell 9 --block 16x4 --size 50x40 --save-preset " + saved).exit_code, 0);
    const auto r = run("--preset " + saved + " --cell 12 --print-command");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("kcanvas --op blend --size 50x40 --weight 0.25 --cell 12 --block 16x4 --grid auto"),
              std::string::npos)
        << r.output;
}

// --print-command's line paints what the flags it came from paint.
TEST(Presets, PrintCommandReproducesTheHeadlessPicture) {
    for (const std::string flags : {
             "--op julia --size 61x47 --iter 90 --julia-re -0.7 --julia-im 0.27 --zoom 1.7 --center -0.1 0.05",
             "--op mandelbrot --size 40x30 --double --zoom 3.3 --center-x -0.75",
             "--op checkerboard --size 37x29 --cell 5 --block 7x3 --grid 3x4 --mapping linear --view block",
             "--op box_blur --size 33x20 --radius 3 --variant tiled",
             "--op blend --size 30x30 --weight 0.3 --tutorial",
         }) {
        SCOPED_TRACE(flags);
        const auto command = run(flags + " --print-command");
        ASSERT_EQ(command.exit_code, 0) << command.output;
        ASSERT_TRUE(command.output.starts_with("kcanvas ")) << command.output;
        std::string again = command.output.substr(8);
        again.erase(again.find_last_not_of('\n') + 1);
        const std::string a = ::testing::TempDir() + "/kc_presets_flags.png",
                          b = ::testing::TempDir() + "/kc_presets_command.png";
        ASSERT_EQ(run(flags + " --headless --backend cpu --frames 1 --out " + a).exit_code, 0);
        const auto r = run(again + " --headless --backend cpu --frames 1 --out " + b);
        ASSERT_EQ(r.exit_code, 0) << again << "\n" << r.output;
        const auto pa = test::load_png(a), pb = test::load_png(b);
        ASSERT_FALSE(pa.pixels.empty());
        EXPECT_TRUE(pa.pixels == pb.pixels) << again;
        // and --help documents every flag it uses
        const std::string help = run("--help").output;
        std::istringstream words(again);
        for (std::string w; words >> w;)
            if (w.starts_with("--")) {
                EXPECT_NE(help.find("  " + w + " "), std::string::npos) << w;
            }
    }
}

// Issue 24: files made to hurt. Each is refused with exit 2 and a message naming the limit; none
// crashes, hangs or sends its bytes raw to the terminal.
TEST(Presets, AValueNested80000DeepIsRefusedBeforeParsing) {
    const std::string deep =
        R"({"kcanvas_preset": 1, "canvas": {"width": )" + std::string(80000, '[') + std::string(80000, ']') + "}}";
    Preset p;
    std::vector<std::string> warnings;
    const auto e = parse_preset(deep, p, warnings);
    ASSERT_TRUE(e);
    EXPECT_EQ(*e, "line 1, column 57: nested deeper than the 16 levels a preset may hold");
    const std::string path = write_temp("deep.json", deep);
    const auto r = run("--preset " + path + " --print-command");
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("--preset " + path + ": line 1, column 57: nested deeper than the 16 levels"),
              std::string::npos)
        << r.output.substr(0, 2000);
    EXPECT_LT(r.output.size(), 1000u); // the value is never dumped into the message
}

TEST(Presets, AValueIsQuotedInAMessageAsAShortPrefix) {
    std::string ones = "1";
    for (int i = 0; i < 50000; ++i) ones += ",1";
    const std::string wide = R"({"kcanvas_preset": 1, "canvas": {"width": [)" + ones + "]}}";
    Preset p;
    std::vector<std::string> warnings;
    const auto e = parse_preset(wide, p, warnings);
    ASSERT_TRUE(e);
    EXPECT_EQ(*e, "canvas.width: expected a number, got " + ones.insert(0, "[").substr(0, 40) + "...");
    // A number of 50,000 digits: nlohmann's message quotes it whole; ours cuts it.
    const auto big =
        parse_preset(R"({"kcanvas_preset": 1, "canvas": {"width": )" + std::string(50000, '1') + "}}", p, warnings);
    ASSERT_TRUE(big);
    EXPECT_TRUE(big->starts_with("not valid JSON: number overflow parsing '111")) << *big;
    EXPECT_LT(big->size(), 200u);
}

TEST(Presets, APresetOverTheSizeLimitIsRefusedUnread) {
    const std::string path =
        write_temp("huge.json", R"({"kcanvas_preset": 1, "kernel": {"source": ")" + std::string(3 << 20, 'x') + "\"}}");
    const auto r = run("--preset " + path + " --print-command");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(fmt::format("--preset cannot read '{}': {} bytes, over the 2097152 bytes a preset may hold",
                                        path, std::filesystem::file_size(path))),
              std::string::npos)
        << r.output;
}

TEST(Presets, NotValidJsonSaysTheLineAndColumn) {
    Preset p;
    std::vector<std::string> warnings;
    const auto e = parse_preset("{\n  \"kcanvas_preset\": 1,\n  \"op\": }\n", p, warnings);
    ASSERT_TRUE(e);
    EXPECT_TRUE(e->starts_with("not valid JSON at line 3, column 9: syntax error while parsing value")) << *e;
}

TEST(Presets, NumbersAreCheckedStrictly) {
    struct Case {
        std::string json, message;
    };
    const std::string head = R"({"kcanvas_preset": 1, )";
    for (const Case& c : {
             Case{head + R"("overlays": {"inspect": [4294967296, 5]}})",
                  "overlays.inspect: expected [x, y] (whole numbers from 0 to 16383) or null, got [4294967296,5]"},
             Case{head + R"("overlays": {"inspect": [-1, 5]}})", "overlays.inspect: expected [x, y]"},
             Case{head + R"("overlays": {"inspect": [true, 5]}})", "overlays.inspect: expected [x, y]"},
             Case{head + R"("params": {"iter": true}})", "params.iter: expected a number, got true"},
             Case{head + R"("op": "mandelbrot", "params": {"double": 1}})",
                  "params.double: expected true or false, got 1"},
         }) {
        SCOPED_TRACE(c.json);
        Preset p;
        std::vector<std::string> warnings;
        const auto e = parse_preset(c.json, p, warnings);
        ASSERT_TRUE(e);
        EXPECT_NE(e->find(c.message), std::string::npos) << *e;
        const auto r = run("--preset " + write_temp("strict.json", c.json) + " --print-command");
        EXPECT_EQ(r.exit_code, 2) << r.output;
    }
    Preset p; // what the window writes still reads
    std::vector<std::string> warnings;
    EXPECT_FALSE(parse_preset(head + R"("op": "mandelbrot", "params": {"double": true, "iter": 300},
                                        "overlays": {"inspect": [16383, 0]}})",
                              p, warnings));
    EXPECT_EQ(p.inspect, (std::pair{16383, 0}));
}

// --save-preset stores the images' paths absolute: the preset opens the same from another folder.
TEST(Presets, SavePresetStoresImagePathsResolved) {
    const std::string dir = std::filesystem::path(::testing::TempDir() + "/kc_presets_paths").lexically_normal(),
                      elsewhere = dir + "/elsewhere";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(elsewhere);
    ASSERT_EQ(run("--headless --backend cpu --op gradient --size 8x6 --frames 1 --out " + dir + "/in.png").exit_code,
              0);
    const auto saved = test::run_shell("cd '" + dir + "' && " + test::test_env(test::test_data_home()) + KCANVAS_BIN +
                                       " --op blend --image in.png --save-preset p.json");
    ASSERT_EQ(saved.exit_code, 0) << saved.output;
    const auto r = test::run_shell("cd '" + elsewhere + "' && " + test::test_env(test::test_data_home()) + KCANVAS_BIN +
                                   " --preset ../p.json --headless --backend cpu --frames 1 --out x.png");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(test::run_shell("cat '" + dir + "/p.json'").output.find("\"a\": \"" + dir + "/in.png\""),
              std::string::npos);
}

// A preset's strings (an op name, a path, a key) reach the terminal escaped: no escape sequence
// of the file's (here: set the terminal's title) is ever printed raw.
TEST(Presets, StringsFromAPresetArePrintedEscaped) {
    const std::string title = R"(\u001b]0;owned\u0007)";
    for (const std::string& json : {
             R"({"kcanvas_preset": 1, "op": ")" + title + R"("})",
             R"({"kcanvas_preset": 1, "view": ")" + title + R"("})",
             R"({"kcanvas_preset": 1, "params": {"weight": ")" + title + R"("}})",
             R"({"kcanvas_preset": 1, "launch": {"block": ")" + title + R"("}})",
             R"({"kcanvas_preset": 1, ")" + title + R"(": 1})",
             R"({"kcanvas_preset": 1, "images": {"a": ")" + title + R"("}})",
         }) {
        SCOPED_TRACE(json);
        const std::string path = write_temp("escapes.json", json);
        for (const std::string flags : {" --print-command", " --headless --backend cpu --frames 1"}) {
            const auto r = run("--preset " + path + flags);
            EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
            EXPECT_EQ(r.output.find('\x07'), std::string::npos) << r.output;
            EXPECT_NE(r.output.find(R"(\e]0;owned)"), std::string::npos) << r.output;
        }
    }
    // --print-command's line quotes such a path for bash ($'...'), so it still names the same file.
    const auto r = run(
        "--preset " + write_temp("escapes.json", R"({"kcanvas_preset": 1, "images": {"a": ")" + title + R"(x.png"}})") +
        " --print-command");
    EXPECT_NE(r.output.find(R"(--image $'\e]0;owned\x07x.png')"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
