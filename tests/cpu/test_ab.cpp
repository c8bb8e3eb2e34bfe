// The A/B split (app/ab/): the pixel diff, the split picture and the time ratio against hand
// counts; presets holding both sides; `kcanvas --ab A B --headless --json` against independent
// references of both sides' pictures (tests/support/reference.h), and its exit codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "app/ab/ab_times.h"
#include "app/ab/pixel_diff.h"
#include "app/ab/split_picture.h"
#include "app/core/preset.h"
#include "app/record/frame_encoder.h"
#include "app/ui/overlay/record_render.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"
#include "tests/support/image_file.h"
#include "tests/support/op_references.h"
#include "tests/support/reference.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

using test::run;

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "/kc_ab_" + name; }

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path) << text;
    return path;
}

// A preset of `op` on a W x H canvas with `launch` (JSON), written to a file.
std::string preset_file(const std::string& name, const std::string& op, int w, int h,
                        const std::string& launch = R"({"block": "32x8", "grid": "auto", "mapping": "2d"})") {
    return write_temp(name, R"({"kcanvas_preset": 1, "op": ")" + op + R"(", "canvas": {"width": )" + std::to_string(w) +
                                R"(, "height": )" + std::to_string(h) + R"(}, "launch": )" + launch + "}");
}

// The JSON a run printed (stdout's last object; stderr's warnings come before it).
nlohmann::json run_json(const std::string& args, int* exit_code = nullptr) {
    const auto r = run(args);
    if (exit_code) *exit_code = r.exit_code;
    const std::size_t at = r.output.find("{\n");
    EXPECT_NE(at, std::string::npos) << r.output;
    if (at == std::string::npos) return {};
    return nlohmann::json::parse(r.output.substr(at), nullptr, false);
}

std::vector<Pixel> random_pixels(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<Pixel> v(n);
    for (Pixel& p : v) p = unpack(static_cast<std::uint32_t>(rng()));
    return v;
}

TEST(AbModel, TheDiffCountsEveryPixelThatDiffersInAnyByte) {
    std::vector<Pixel> a = random_pixels(5000, 1), b = a;
    std::mt19937 rng(2);
    std::vector<std::uint8_t> poisoned(a.size(), 0);
    for (int i = 0; i < 700; ++i) { // one byte of a random pixel, some twice: the count is of pixels
        const std::size_t at = rng() % b.size();
        reinterpret_cast<std::uint8_t*>(&b[at])[rng() % 4] ^= std::uint8_t(1 + rng() % 255);
        poisoned[at] = 1;
    }
    long long expected = 0;
    for (std::uint8_t p : poisoned) expected += p;
    const PixelDiff d = diff_pixels(a, b);
    EXPECT_EQ(d.differing, expected);
    EXPECT_EQ(d.compared, 5000);
    EXPECT_EQ(d.marked, poisoned);
    EXPECT_FALSE(d.identical());
    EXPECT_TRUE(diff_pixels(a, a).identical());
    EXPECT_EQ(diff_text(diff_pixels(a, a)), "identical");
    EXPECT_EQ(diff_pixels(a, std::vector<Pixel>(4999)).compared, 0) << "pictures of two sizes compare nothing";
    const std::vector<Pixel> marks = diff_marks(d);
    for (std::size_t i = 0; i < marks.size(); ++i)
        ASSERT_EQ(pack(marks[i]), poisoned[i] ? pack(kDiffMark) : pack(Pixel{0, 0, 0, 255})) << i;
}

TEST(AbModel, TheSplitPictureIsAleftOfTheDividerAndBRightOfIt) {
    const int w = 37, h = 5;
    const std::vector<Pixel> a = random_pixels(w * h, 3), b = random_pixels(w * h, 4);
    AbSplit split;
    split.divider = 0.3; // column 11 is B's first
    const SplitPicture s = split_picture(a, b, w, h, split);
    ASSERT_EQ(s.width, w);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            const Pixel want = x == 10 ? kDividerColour : x < 11 ? a[i] : b[i];
            ASSERT_EQ(pack(s.pixels[i]), pack(want)) << x << "," << y;
        }
    split.layout = AbLayout::SideBySide;
    const SplitPicture t = split_picture(a, b, w, h, split);
    ASSERT_EQ(t.width, 2 * w);
    EXPECT_EQ(pack(t.pixels[std::size_t(2) * t.width + 3]), pack(a[2 * w + 3]));
    EXPECT_EQ(pack(t.pixels[std::size_t(2) * t.width + w + 3]), pack(b[2 * w + 3]));
}

// A recorded split compares the canvases only: A's caption (a box only A draws) is laid over the
// frame, not marked as a difference, and each side's marks stay on its side.
TEST(AbModel, ARecordedSplitComparesTheCanvasesAndKeepsEachSidesOverlays) {
    const int w = 8, h = 4;
    constexpr Pixel kGrey{90, 90, 90, 255}, kBox{20, 30, 40, 255}, kMarkA{0, 0, 255, 255}, kMarkB{255, 255, 255, 255};
    const Pixel none{0, 0, 0, 0};
    FrameLayers a{std::vector<Pixel>(w * h, kGrey), std::vector<Pixel>(w * h, none), std::vector<Pixel>(w * h, none)};
    FrameLayers b{std::vector<Pixel>(w * h, kGrey), std::vector<Pixel>(w * h, none), {}};
    for (int x = 0; x < w; ++x) a.boxes[std::size_t(h - 1) * w + x] = kBox; // A's caption: the bottom row
    a.marks[1] = a.marks[6] = kMarkA, b.marks[1] = b.marks[6] = kMarkB;     // row 0: x = 1 is A's, x = 6 B's
    b.canvas[std::size_t(1) * w + 5] = Pixel{1, 2, 3, 255};                 // the one difference
    RecordFrame f;
    f.job.params.width = w, f.job.params.height = h;
    AbSplit split; // a divider at 0.5: column 4 is B's first; diff on
    std::vector<Pixel> out;
    const auto side = [](const FrameLayers& l) {
        return LayersRender([l](const RecordFrame&, FrameLayers& o) {
            o = l;
            return std::optional<std::string>();
        });
    };
    ASSERT_FALSE(render_split_frame(split, f, side(a), side(b), out));
    ASSERT_EQ(out.size(), std::size_t(w) * h);
    for (int x = 0; x < w; ++x) EXPECT_EQ(pack(out[std::size_t(h - 1) * w + x]), pack(kBox)) << x;
    EXPECT_EQ(pack(out[1]), pack(kMarkA));
    EXPECT_EQ(pack(out[6]), pack(kMarkB));
    EXPECT_EQ(pack(out[std::size_t(1) * w + 5]), pack(kDiffMark));
    EXPECT_EQ(pack(out[std::size_t(2) * w + 6]), pack(kGrey));
}

TEST(AbModel, TheRatioIsOfTheMediansAndItsRangeOfTheSpreads) {
    TimingStats a, b;
    for (double us : {10.0, 11.0, 12.0, 13.0, 14.0}) a.add(us), b.add(2 * us);
    const SideTime ta = side_time(a), tb = side_time(b);
    EXPECT_EQ(ta.median_us, 12.0);
    EXPECT_EQ(ta.q1_us, 11.0);
    EXPECT_EQ(ta.q3_us, 13.0);
    const AbRatio r = ab_ratio(ta, tb);
    EXPECT_DOUBLE_EQ(r.ratio, 2.0);
    EXPECT_DOUBLE_EQ(r.low, 22.0 / 13.0);
    EXPECT_DOUBLE_EQ(r.high, 26.0 / 11.0);
    EXPECT_FALSE(r.within_noise());
    EXPECT_TRUE(ab_ratio(ta, ta).within_noise());
    EXPECT_EQ(ab_ratio(ta, side_time(TimingStats{})).ratio, 0.0) << "no samples, no ratio";
}

TEST(AbPreset, BothSidesSurviveAWriteAndARead) {
    Preset p;
    p.job.op = find_op("gradient")->index;
    p.job.params.width = 321, p.job.params.height = 123;
    AbSplit ab;
    ab.b.op = find_op("blend")->index;
    ab.b.params.blend_integer = true;
    ab.b.params.weight = 0.25;
    ab.b.launch = {.block = {16, 4, 1}, .grid = {3, 2, 1}, .auto_grid = false, .mapping = Mapping::Columns};
    ab.layout = AbLayout::SideBySide, ab.divider = 0.75, ab.diff = false;
    p.ab = ab;
    Preset q;
    std::vector<std::string> warnings;
    ASSERT_FALSE(parse_preset(preset_json(p), q, warnings)) << preset_json(p);
    EXPECT_TRUE(warnings.empty());
    ASSERT_TRUE(q.ab);
    EXPECT_EQ(q.ab->b.op, ab.b.op);
    EXPECT_TRUE(q.ab->b.params.blend_integer);
    EXPECT_EQ(q.ab->b.params.weight, 0.25);
    EXPECT_EQ(q.ab->b.launch, ab.b.launch);
    EXPECT_EQ(q.ab->b.params.width, 321) << "B paints A's canvas";
    EXPECT_EQ(q.ab->layout, AbLayout::SideBySide);
    EXPECT_EQ(q.ab->divider, 0.75);
    EXPECT_FALSE(q.ab->diff);
    EXPECT_EQ(q.job.op, p.job.op) << "side A stays A";
}

TEST(AbPreset, APresetWithoutASplitStillLoadsAsOnePicture) {
    Preset q;
    std::vector<std::string> warnings;
    ASSERT_FALSE(parse_preset(R"({"kcanvas_preset": 1, "op": "invert", "launch": {"block": "16x16"}})", q, warnings));
    EXPECT_FALSE(q.ab);
    EXPECT_TRUE(warnings.empty());
    // A split naming only how it shows: B starts as A.
    ASSERT_FALSE(parse_preset(R"({"kcanvas_preset": 1, "op": "invert", "ab": {"divider": 0.25}})", q, warnings));
    ASSERT_TRUE(q.ab);
    EXPECT_EQ(q.ab->b.op, q.job.op);
    EXPECT_EQ(q.ab->divider, 0.25);
}

TEST(AbPreset, ABadSplitIsRefusedNamingItsPath) {
    struct Case {
        const char* ab;
        const char* message;
    };
    for (const Case& c : {Case{R"({"divider": 2})", "ab.divider: 2 is not from 0 to 1"},
                          Case{R"({"layout": "diagonal"})", "ab.layout: 'diagonal' is not divider or side-by-side"},
                          Case{R"({"b": {"canvas": {"width": 10}}})", "ab.b.canvas: side B paints side A's canvas"},
                          Case{R"({"b": {"launch": {"block": "64x32"}}})", "ab.b: launch.block: 64x32 has 2048"},
                          Case{R"({"b": {"op": "nope"}})", "ab.b: op: unknown op 'nope'"},
                          Case{R"({"b": {"ab": {}}})", "ab.b.ab: side B holds no split of its own"},
                          Case{R"({"diff": 1})", "ab.diff: expected true or false"}, Case{"[]", "ab: is not"}}) {
        Preset q;
        std::vector<std::string> warnings;
        const auto e = parse_preset(std::string(R"({"kcanvas_preset": 1, "ab": )") + c.ab + "}", q, warnings);
        ASSERT_TRUE(e) << c.ab;
        EXPECT_NE(e->find(c.message), std::string::npos) << *e;
    }
    Preset q;
    std::vector<std::string> warnings;
    ASSERT_FALSE(parse_preset(R"({"kcanvas_preset": 1, "ab": {"b": {"colour": 1}}})", q, warnings));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "ab.b.colour: unknown key, ignored");
}

// The run's JSON: each side's time and the diff.
void expect_both_timed(const nlohmann::json& j, int frames) {
    for (const char* side : {"a", "b"}) {
        ASSERT_TRUE(j.contains(side)) << j.dump();
        EXPECT_EQ(j[side]["kernel"]["samples"], frames) << side;
        EXPECT_GT(j[side]["kernel"]["median_us"].get<double>(), 0.0) << side;
    }
    EXPECT_EQ(j["timed_by"], "the CPU emulator's wall clock (not a GPU's time)");
}

TEST(AbCli, IdenticalSidesDifferInNoPixelAndTheirRatioIsWithinTheNoise) {
    const std::string a = preset_file("same_a.json", "gradient", 256, 160);
    int code = -1;
    const auto j = run_json("--ab " + a + " " + a + " --headless --json --backend cpu --frames 24", &code);
    EXPECT_EQ(code, 0);
    expect_both_timed(j, 24);
    EXPECT_EQ(j["diff_pixels"], 0);
    EXPECT_EQ(j["compared_pixels"], 256 * 160);
    EXPECT_TRUE(j["identical"].get<bool>());
    // The same kernel twice: its ratio lies inside the range the two sides' spreads allow.
    const double ratio = j["ratio_b_over_a"], low = j["ratio_low"], high = j["ratio_high"];
    EXPECT_GT(ratio, 0.0);
    EXPECT_LE(low, 1.0) << j.dump();
    EXPECT_GE(high, 1.0) << j.dump();
    EXPECT_TRUE(j["within_noise"].get<bool>());
}

// Threshold at two levels over the same gradient: the pictures differ exactly where the
// gradient's luminance lies between the levels.
TEST(AbCli, TwoThresholdsDifferWhereTheirReferencesDo) {
    const int w = 200, h = 120;
    auto threshold = [&](const std::string& name, int level) {
        return write_temp(name, R"({"kcanvas_preset": 1, "op": "threshold", "params": {"level": )" +
                                    std::to_string(level) + R"(}, "canvas": {"width": 200, "height": 120}})");
    };
    const std::string a = threshold("t100.json", 100), b = threshold("t150.json", 150);
    long long expected = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int luma = ref::luma(ref::pixel(ref::gradient(x, y, w, h)));
            expected += (luma >= 100) != (luma >= 150);
        }
    ASSERT_GT(expected, 0);
    ASSERT_LT(expected, w * h) << "the two pictures agree somewhere: a count, not everything";
    int code = -1;
    const auto j = run_json("--ab " + a + " " + b + " --headless --json --backend cpu --frames 3", &code);
    EXPECT_EQ(code, 0);
    expect_both_timed(j, 3);
    EXPECT_EQ(j["a"]["op"], "threshold");
    EXPECT_EQ(j["diff_pixels"].get<long long>(), expected);
    EXPECT_FALSE(j["identical"].get<bool>());
}

// B's hand-set grid is short of the canvas: its uncovered pixels (the hatch no op paints) are the
// diff, counted from CUDA's indexing rules by the test's own enumeration of every thread.
TEST(AbCli, AShortGridsUncoveredPixelsAreTheDiff) {
    const int w = 200, h = 120;
    const std::string a = preset_file("full.json", "gradient", w, h);
    const std::string b =
        preset_file("short.json", "gradient", w, h, R"({"block": "32x8", "grid": "5x9", "mapping": "columns"})");
    const LaunchConfig l{.block = {32, 8, 1}, .grid = {5, 9, 1}, .auto_grid = false, .mapping = Mapping::Columns};
    const std::vector<int> writes = ref::writes_per_pixel(l, l.grid, w, h);
    long long expected = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (writes[std::size_t(y) * w + x] == 0) {
                const ref::Rgb g = ref::gradient(x, y, w, h);
                expected += pack(ref::pixel(g)) != pack(uncovered_pixel(x, y));
            }
    ASSERT_GT(expected, 0);
    int code = -1;
    const auto j = run_json("--ab " + a + " " + b + " --headless --json --backend cpu --frames 2", &code);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(j["b"]["grid"], "5x9x1");
    EXPECT_EQ(j["b"]["mapping"], "columns");
    EXPECT_EQ(j["diff_pixels"].get<long long>(), expected);
}

TEST(AbCli, OutWritesTheSplitAsTheWindowShowsIt) {
    const int w = 160, h = 90, cell = 10;
    // The diff off (side A's preset says so): every pixel is A's or B's, as the divider puts them.
    const std::string a = write_temp("out_a.json", R"({"kcanvas_preset": 1, "op": "gradient", "canvas": )"
                                                   R"({"width": 160, "height": 90}, "ab": {"diff": false}})");
    const std::string b =
        write_temp("out_b.json", R"({"kcanvas_preset": 1, "op": "checkerboard", "params": {"cell": 10}})");
    const std::string out = temp_path("split.png");
    std::filesystem::remove(out);
    const auto r = run("--ab " + a + " " + b + " --headless --backend cpu --frames 1 --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("pixels: 14400 pixels differ (100.00 %)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("B/A = "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("paints 800x800; side B paints side A's canvas, 160x90"), std::string::npos) << r.output;
    const test::LoadedImage img = test::load_png(out);
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const ref::Rgb g = ref::gradient(x, y, w, h), c = ref::checkerboard(x, y, cell);
            const Pixel want = x == 79 ? kDividerColour : ref::pixel(x < 80 ? g : c);
            ASSERT_EQ(pack(img.pixels[std::size_t(y) * w + x]), pack(want)) << x << "," << y;
        }
}

TEST(AbCli, ASavedSplitRunsAgainFromItsPreset) {
    const std::string a = preset_file("save_a.json", "gradient", 64, 48);
    const std::string b = preset_file("save_b.json", "checkerboard", 64, 48);
    const std::string both = temp_path("both.json");
    std::filesystem::remove(both);
    const auto saved = run("--ab " + a + " " + b + " --save-preset " + both);
    ASSERT_EQ(saved.exit_code, 0) << saved.output;
    int code = -1;
    const auto again = run_json("--preset " + both + " --headless --json --backend cpu --frames 2", &code);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(again["b"]["op"], "checkerboard");
    const auto direct = run_json("--ab " + a + " " + b + " --headless --json --backend cpu --frames 2");
    EXPECT_EQ(again["diff_pixels"], direct["diff_pixels"]);
}

// Side B runs a kernel of the user's (compiled for the CPU, in the sandbox): the gradient starter
// as shipped paints what the built-in gradient does; changed to paint its first 10 columns black,
// it differs from the built-in in exactly those (the gradient is never black).
TEST(AbCli, YourKernelAgainstTheBuiltInDiffersOnlyWhereItPaintsOtherwise) {
    const int w = 96, h = 64;
    const std::string a = preset_file("builtin.json", "gradient", w, h);
    const std::string starter(find_starter("gradient")->source);
    auto kernel_preset = [&](const std::string& name, const std::string& source) {
        const nlohmann::json j = {{"kcanvas_preset", 1},
                                  {"op", "user_kernel"},
                                  {"canvas", {{"width", w}, {"height", h}}},
                                  {"kernel", {{"source", source}, {"mode", "checked"}}}};
        return write_temp(name, j.dump());
    };
    const std::string marker = "if (x >= width || y >= height) return;";
    ASSERT_NE(starter.find(marker), std::string::npos) << "the starter changed: update this test";
    std::string changed = starter;
    changed.insert(changed.find(marker) + marker.size(),
                   "\n    if (x < 10) { store(out, y * width + x, make_pixel(0, 0, 0)); return; }");
    const auto same = run_json("--ab " + a + " " + kernel_preset("starter.json", starter) +
                               " --headless --json --backend cpu --frames 2");
    EXPECT_EQ(same["b"]["op"], "user_kernel");
    EXPECT_EQ(same["diff_pixels"], 0) << same.dump();
    int code = -1;
    const auto differ = run_json("--ab " + a + " " + kernel_preset("changed.json", changed) +
                                     " --headless --json --backend cpu --frames 2",
                                 &code);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(differ["diff_pixels"], 10 * h) << differ.dump();
}

// `kcanvas record --ab`: each frame is the split as the window shows it; side by side, twice as wide.
TEST(AbCli, ARecordingRecordsTheSplit) {
    const int w = 64, h = 48, cell = 16;
    for (const char* layout : {"divider", "side-by-side"}) {
        SCOPED_TRACE(layout);
        const std::string a = write_temp(std::string("rec_a_") + layout + ".json",
                                         R"({"kcanvas_preset": 1, "op": "gradient", "canvas": {"width": 64, )"
                                         R"("height": 48}, "ab": {"diff": false, "divider": 0.25, "layout": ")" +
                                             std::string(layout) + R"("}})");
        const std::string b = write_temp("rec_b.json", R"({"kcanvas_preset": 1, "op": "checkerboard", "canvas": )"
                                                       R"({"width": 64, "height": 48}, "params": {"cell": 16}})");
        const std::string dir = temp_path(std::string("rec_") + layout);
        std::filesystem::remove_all(dir);
        const auto r = run("record --backend cpu --frames 2 --plain --ab " + a + " " + b + " --out " + dir + "/");
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const test::LoadedImage frame = test::load_png(dir + "/" + sequence_frame_name(1));
        const bool side = std::string(layout) == "side-by-side";
        ASSERT_EQ(frame.width, side ? 2 * w : w);
        ASSERT_EQ(frame.height, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < frame.width; ++x) {
                const ref::Rgb g = ref::gradient(x % w, y, w, h), c = ref::checkerboard(x % w, y, cell);
                const Pixel want = side      ? ref::pixel(x < w ? g : c)
                                   : x == 15 ? kDividerColour
                                             : ref::pixel(x < 16 ? g : c);
                ASSERT_EQ(pack(frame.pixels[std::size_t(y) * frame.width + x]), pack(want)) << x << "," << y;
            }
    }
}

TEST(AbCli, BadInputExitsWith2AndSaysWhy) {
    const std::string good = preset_file("good.json", "gradient", 64, 48);
    const std::string bad_json = write_temp("bad.json", "{\"kcanvas_preset\": 1, ");
    const std::string bad_b = preset_file("bad_b.json", "gradient", 64, 48, R"({"block": "32x8", "grid": "1x70000"})");
    struct Case {
        std::string args, message;
    };
    for (const Case& c : {Case{"--ab " + good + " /no/such.json --headless", "/no/such.json"},
                          Case{"--ab " + good + " " + bad_json + " --headless --json", "bad.json"},
                          Case{"--ab " + bad_json + " " + good + " --headless", "bad.json"},
                          Case{"--ab " + good + " --headless", "--ab"},
                          Case{"--ab " + good + " " + good + " --preset " + good + " --headless", "drop --preset"},
                          Case{"--ab " + good + " " + bad_b + " --headless", "bad_b.json: launch: grid y = 70000"}}) {
        const auto r = run(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    }
}

} // namespace
} // namespace kc
