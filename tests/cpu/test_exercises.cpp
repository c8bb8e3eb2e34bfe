// Exercises on the CPU backend: every shipped solution passes and every starter fails; a kernel
// that works only for the default launch fails with the launch named; the per-thread budget names
// the thread that read twice; wrong and unwritten pixels are counted as worked out by hand; a
// submission that calls system() or fopen() is stopped by the sandbox; the command line's list,
// starter, solution and check (exit codes, JSON, globs) behave as documented; progress is kept
// atomically and an unreadable progress file is kept aside, never written over.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/exercise/exercise.h"
#include "app/exercise/grader.h"
#include "app/exercise/progress.h"
#include "gpu/user_kernel.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

namespace fs = std::filesystem;
using test::run;

fs::path scratch_dir() {
    static const fs::path dir = [] {
        const fs::path d = fs::path(::testing::TempDir()) / ("kc_exercises_" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

class ExerciseTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { setenv("KCANVAS_KERNEL_HOST", KC_KERNEL_HOST, 1); }

    static Exercise shipped(const std::string& name) {
        Exercise e;
        const auto why = load_exercise(name, e);
        EXPECT_EQ(why, std::nullopt) << *why;
        return e;
    }
    static GradeResult graded(const Exercise& e, const std::string& source) {
        GradeOptions o;
        o.backend = GradeBackend::Cpu;
        o.cache_dir = scratch_dir() / "cache";
        auto r = grade(e, source, "kernel.cu", o);
        if (const auto* refusal = std::get_if<GradeRefusal>(&r)) {
            ADD_FAILURE() << "refused: " << refusal->why;
            return {};
        }
        return std::get<GradeResult>(r);
    }
    static std::string write(const std::string& name, const std::string& text) {
        const fs::path p = scratch_dir() / name;
        std::ofstream(p) << text;
        return p.string();
    }
    static std::string replaced(std::string s, const std::string& from, const std::string& to) {
        const auto at = s.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) s.replace(at, from.size(), to);
        return s;
    }
};

TEST_F(ExerciseTest, AtLeastEightShipAndEachReadsWithConstraints) {
    ASSERT_GE(shipped_exercises().size(), 8u);
    for (const ShippedExercise& s : shipped_exercises()) {
        const Exercise e = shipped(std::string(s.name));
        EXPECT_FALSE(e.title.empty()) << s.name;
        EXPECT_NE(e.starter.find("TODO"), std::string::npos) << s.name << "'s starter has no TODO";
        EXPECT_NE(e.starter, e.solution) << s.name;
        EXPECT_GE(grading_launches(e).size(), 2u) << s.name << " is graded on one launch only";
        EXPECT_GE(constraint_lines(e).size(), 2u) << s.name;
    }
}

// One test per shipped exercise (ctest runs them side by side).
class ShippedExercise_ : public ExerciseTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(ShippedExercise_, SolutionPassesAndStarterFailsOnTheCpu) {
    const Exercise e = shipped(GetParam());
    const GradeResult good = graded(e, e.solution);
    EXPECT_TRUE(good.passed) << GetParam() << ": " << good.summary << "\n" << good.compile_log;
    EXPECT_EQ(good.launches.size(), grading_launches(e).size());
    EXPECT_EQ(good.backend, "cpu");
    if (e.max_writes) {
        EXPECT_GE(good.writes.count, 1u) << "the counted build counts nothing";
    }
    const GradeResult bad = graded(e, e.starter);
    EXPECT_TRUE(bad.compiled) << GetParam() << "'s starter does not compile:\n" << bad.compile_log;
    EXPECT_FALSE(bad.passed) << GetParam() << "'s starter passes";
    EXPECT_EQ(bad.summary.rfind("fails with block ", 0), 0u) << bad.summary;
    if (e.timed) {
        EXPECT_NE(bad.timing_note.find("needs a GPU"), std::string::npos) << bad.timing_note;
    }
}

INSTANTIATE_TEST_SUITE_P(Shipped, ShippedExercise_,
                         ::testing::Values("gradient", "chess", "merge", "bounds", "grid-stride", "transpose",
                                           "histogram", "box-blur"),
                         [](const auto& info) {
                             std::string n = info.param;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST_F(ExerciseTest, EveryShippedExerciseIsInTheParameterList) {
    const std::vector<std::string> tested = {"gradient",    "chess",     "merge",     "bounds",
                                             "grid-stride", "transpose", "histogram", "box-blur"};
    for (const ShippedExercise& s : shipped_exercises())
        EXPECT_NE(std::find(tested.begin(), tested.end(), s.name), tested.end()) << s.name << " is not graded here";
}

// The GPU's side without a GPU: NVRTC compiles every starter and solution with the views counting
// (KC_COUNT_ACCESSES) for an H200 (sm_90), as the grader on a GPU does.
TEST_F(ExerciseTest, EveryKernelCompilesForTheGpuWithTheCountingViews) {
    if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << *why;
    for (const ShippedExercise& s : shipped_exercises()) {
        const Exercise e = shipped(std::string(s.name));
        for (const std::string* source : {&e.starter, &e.solution}) {
            const KernelCompile c = compile_user_kernel(*source, {9, 0}, "kernel.cu", KernelMode::Checked, true);
            EXPECT_TRUE(c.ok) << s.name << ":\n" << c.log;
        }
    }
}

// chess' tutorial launch has 1000 threads a block: a kernel that multiplies by 1000 paints it
// right and fails on the first added launch, 32x8 (256 threads a block), which is named.
TEST_F(ExerciseTest, AKernelForTheDefaultLaunchOnlyFailsWithTheLaunchNamed) {
    const Exercise e = shipped("chess");
    const std::string only_tutorial =
        replaced(e.solution, "block * (blockDim.x * blockDim.y) + thread", "block * 1000 + thread");
    const GradeResult r = graded(e, only_tutorial);
    ASSERT_FALSE(r.passed);
    ASSERT_GE(r.launches.size(), 2u);
    EXPECT_TRUE(r.launches[0].passed) << r.launches[0].problem; // block 50x20, grid 80x8
    ASSERT_EQ(r.first_failed, 1u);
    EXPECT_EQ(launch_name(r.launches[1].launch), "block 32x8, grid 25x100 on 800x800");
    EXPECT_EQ(r.summary.rfind("fails with block 32x8, grid 25x100 on 800x800: ", 0), 0u) << r.summary;
    // 25x100 blocks of 256 = 640000 threads, each painting pixel block*1000 + thread: blocks
    // 0..639 paint their first 256 of every 1000 pixels, the rest (and threads past 640000) nothing.
    EXPECT_EQ(r.launches[1].unwritten, 640000u - 640u * 256u);
    const nlohmann::json j = nlohmann::json::parse(grade_json(r, "only_tutorial.cu"));
    EXPECT_EQ(j["first_failed"], "block 32x8, grid 25x100 on 800x800");
    EXPECT_EQ(j["passed"], false);
    EXPECT_EQ(j["launches"][1]["unwritten"], 640000u - 640u * 256u);
}

// The gradient starter paints only block (0,0)'s 32x8 corner, in one colour, (128, 255, 255):
// the tutorial's gradient has that colour where 255x < 800, 255y < 800 and 128y < 800, i.e. at
// x <= 3, y <= 3: 16 pixels right, 240 wrong, 640000 - 256 unwritten.
TEST_F(ExerciseTest, WrongAndUnwrittenPixelsAreCountedAsWorkedOutByHand) {
    const Exercise e = shipped("gradient");
    const GradeResult r = graded(e, e.starter);
    ASSERT_FALSE(r.launches.empty());
    const LaunchResult& first = r.launches[0];
    EXPECT_EQ(launch_name(first.launch), "block 32x8, grid 25x100 on 800x800");
    EXPECT_EQ(first.wrong, 240u);
    EXPECT_EQ(first.unwritten, 640000u - 256u);
    EXPECT_EQ(first.first_wrong, std::pair(4, 0));
    EXPECT_NE(first.problem.find("240 pixels differ, 639744 unwritten"), std::string::npos) << first.problem;
    // The diff view's pictures: the first failed launch's.
    ASSERT_EQ(r.width, 800);
    ASSERT_EQ(r.picture.size(), 640000u);
    EXPECT_EQ(r.writers[0] != 0u, true);
    EXPECT_EQ(r.writers[799], 0u);
    // The diff view: (0, 0) right (dimmed), (4, 0) wrong (red), (799, 0) unwritten (hatched).
    const std::vector<Pixel> diff = diff_picture(r);
    ASSERT_EQ(diff.size(), 640000u);
    const Pixel t = r.target[0];
    EXPECT_EQ(pack(diff[0]), pack(Pixel{uint8_t(t.b / 3), uint8_t(t.g / 3), uint8_t(t.r / 3), 255}));
    EXPECT_EQ(pack(diff[4]), pack(Pixel{0, 0, 255, 255}));
    EXPECT_EQ(pack(diff[799]), pack(uncovered_pixel(799, 0)));
    std::size_t red = 0;
    for (const Pixel& p : diff) red += pack(p) == pack(Pixel{0, 0, 255, 255});
    EXPECT_EQ(red, 240u);
}

// merge allows 2 reads a thread; reading a twice is 3. One thread alone reads a third time and is
// named; the picture is right, so the budget is the only failure.
TEST_F(ExerciseTest, TheBudgetNamesTheThreadThatReadTwice) {
    const Exercise e = shipped("merge");
    const std::string twice =
        replaced(e.solution, "const Pixel pa = load(a, i), pb = load(b, i);",
                 "const Pixel pa = (x == 37 && y == 9) ? load(a, load(a, i).a == 255 ? i : 0) : load(a, i);\n"
                 "    const Pixel pb = load(b, i);");
    const GradeResult r = graded(e, twice);
    ASSERT_TRUE(r.compiled) << r.compile_log;
    EXPECT_FALSE(r.passed);
    EXPECT_TRUE(r.over_budget);
    EXPECT_EQ(r.reads.count, 3u);
    EXPECT_EQ(r.writes.count, 1u);
    const LaunchResult& first = r.launches[0]; // block 32x8: pixel (37, 9) is thread (5,1,0) of block (1,1,0)
    EXPECT_EQ(first.wrong + first.unwritten, 0u);
    EXPECT_EQ(first.reads.thread, "thread (5,1,0) of block (1,1,0)");
    EXPECT_NE(r.summary.find("thread (5,1,0) of block (1,1,0) made 3 global reads, over the budget of 2"),
              std::string::npos)
        << r.summary;
    EXPECT_EQ(graded(e, e.solution).reads.count, 2u);
}

// The bounds starter paints 800x600 right, and fails on 810x610 (grid 26x77) where the blocks
// stick out: the out-of-range write is named as checked mode names it.
TEST_F(ExerciseTest, AMissingBoundsCheckFailsWithTheOutOfRangeWriteNamed) {
    const Exercise e = shipped("bounds");
    const GradeResult r = graded(e, e.starter);
    ASSERT_FALSE(r.passed);
    EXPECT_TRUE(r.launches[0].passed) << r.launches[0].problem;
    ASSERT_EQ(r.first_failed, 1u);
    EXPECT_EQ(launch_name(r.launches[1].launch), "block 32x8, grid 26x77 on 810x610");
    EXPECT_GT(r.launches[1].violations.count, 0u);
    EXPECT_NE(r.summary.find("wrote out["), std::string::npos) << r.summary;
}

TEST_F(ExerciseTest, ASubmissionThatCompilesNotFailsWithTheCompilersLog) {
    const Exercise e = shipped("gradient");
    const GradeResult r = graded(e, replaced(e.solution, "const int blue", "const int blue = nope;\n    int x2"));
    EXPECT_FALSE(r.compiled);
    EXPECT_FALSE(r.passed);
    EXPECT_NE(r.compile_log.find("kernel.cu("), std::string::npos) << r.compile_log;
    EXPECT_TRUE(r.launches.empty());
}

// A submission is untrusted: system() and fopen() are stopped by the sandbox, nothing is written.
TEST_F(ExerciseTest, ASubmissionCallingSystemOrFopenIsStoppedByTheSandbox) {
    const Exercise e = shipped("gradient");
    const fs::path marker = scratch_dir() / "escaped.txt";
    for (const std::string call : {"(void)!system(\"touch MARKER\");",
                                   "FILE* f = fopen(\"MARKER\", \"w\"); if (f) { fputs(\"out\", f); fclose(f); }"}) {
        fs::remove(marker);
        std::string source = replaced(e.solution, "    store(out, y * width + x",
                                      "    if (x == 5 && y == 3) { " + call + " }\n    store(out, y * width + x");
        source = replaced(source, "MARKER", marker.string());
        source = "#include <stdio.h>\nextern \"C\" int system(const char*);\n" + source;
        const GradeResult r = graded(e, source);
        ASSERT_TRUE(r.compiled) << r.compile_log;
        EXPECT_FALSE(r.passed) << call;
        ASSERT_FALSE(r.launches.empty());
        ASSERT_TRUE(r.launches[0].error) << call;
        EXPECT_NE(r.launches[0].error->find("the sandbox stopped your kernel"), std::string::npos)
            << *r.launches[0].error;
        EXPECT_FALSE(fs::exists(marker)) << call << " escaped the sandbox";
    }
}

// The targets, against references written here from the tutorial's formulas: the gradient op's
// picture on 803x611, and the merge's a*3/4 + b/4 of the images the grader gives both.
TEST_F(ExerciseTest, TargetsAreTheTutorialsFormulasByteForByte) {
    GradeOptions o;
    o.backend = GradeBackend::Cpu;
    o.cache_dir = scratch_dir() / "cache";
    const ExerciseLaunch l{{16, 16, 1}, {51, 39, 1}, 803, 611};
    auto gradient = target_picture(shipped("gradient"), l, o);
    ASSERT_TRUE(std::holds_alternative<std::vector<Pixel>>(gradient));
    const auto& g = std::get<std::vector<Pixel>>(gradient);
    ASSERT_EQ(g.size(), 803u * 611u);
    for (int y = 0; y < 611; ++y)
        for (int x = 0; x < 803; ++x) {
            const Pixel want{uint8_t(255 - 255 * y / 611), uint8_t(255 - 255 * x / 803), uint8_t(128 - 128 * y / 611),
                             255};
            ASSERT_EQ(pack(g[std::size_t(y) * 803 + x]), pack(want)) << x << "," << y;
        }
    const Exercise merge = shipped("merge");
    auto merged = target_picture(merge, l, o);
    ASSERT_TRUE(std::holds_alternative<std::vector<Pixel>>(merged));
    const ExerciseImages in = exercise_images(merge, 803, 611);
    const auto& m = std::get<std::vector<Pixel>>(merged);
    for (std::size_t i = 0; i < m.size(); ++i) {
        const Pixel a = in.a[i], b = in.b[i];
        const Pixel want{uint8_t(a.b * 3 / 4 + b.b / 4), uint8_t(a.g * 3 / 4 + b.g / 4), uint8_t(a.r * 3 / 4 + b.r / 4),
                         255};
        ASSERT_EQ(pack(m[i]), pack(want)) << i;
    }
    EXPECT_EQ(pack(in.a[0]), pack(g[0])) << "a is not the gradient";
}

// The histogram's target (its solution's picture) against bins counted here, row by row, from the
// BT.601 luma the built-in histogram op counts.
TEST_F(ExerciseTest, TheHistogramTargetIsEachRowsLumaBinsCountedHere) {
    GradeOptions o;
    o.backend = GradeBackend::Cpu;
    o.cache_dir = scratch_dir() / "cache";
    const Exercise e = shipped("histogram");
    const ExerciseLaunch l = e.launches[1]; // 803x611
    auto target = target_picture(e, l, o);
    ASSERT_TRUE(std::holds_alternative<std::vector<Pixel>>(target)) << std::get<GradeRefusal>(target).why;
    const auto& t = std::get<std::vector<Pixel>>(target);
    const ExerciseImages in = exercise_images(e, l.width, l.height);
    for (int y = 0; y < l.height; ++y) {
        unsigned bins[256] = {};
        for (int x = 0; x < l.width; ++x) {
            const Pixel p = in.a[std::size_t(y) * l.width + x];
            ++bins[(299 * p.r + 587 * p.g + 114 * p.b + 500) / 1000];
        }
        for (int x = 0; x < l.width; ++x) {
            const int v = int(std::min(255u, 32 * bins[x * 256 / l.width]));
            ASSERT_EQ(pack(t[std::size_t(y) * l.width + x]), pack(Pixel{uint8_t(v), uint8_t(v), uint8_t(v), 255}))
                << x << "," << y;
        }
    }
}

TEST_F(ExerciseTest, ParseErrorsNameTheKey) {
    const Exercise g = shipped("gradient");
    Exercise e;
    const auto why = [&](const std::string& json) {
        return parse_exercise(json, g.starter, g.solution, "x", e).value_or("(accepted)");
    };
    const std::string head =
        R"({"kcanvas_exercise": 1, "title": "t", "description": "d", "target": {"op": "gradient"}, )";
    EXPECT_NE(why(head + R"("launches": [{"block": "32x8", "grd": "2x2"}]})").find("launches[0].grd: unknown key"),
              std::string::npos);
    EXPECT_NE(why(head + R"("launches": [{"block": "40x40"}]})").find("launches[0].block: 1600 threads"),
              std::string::npos);
    EXPECT_NE(why(head + R"("launches": []})").find("launches: expected a list of 1 to 16"), std::string::npos);
    EXPECT_NE(why(head + R"("launches": [{"block": "32x8"}], "max_reads": -1})").find("max_reads:"), std::string::npos);
    EXPECT_NE(
        why(R"({"kcanvas_exercise": 1, "title": "t", "description": "d", "target": {"op": "nope"}, "launches": [{"block": "32x8"}]})")
            .find("target.op: expected one of the built-in ops"),
        std::string::npos);
    EXPECT_NE(why(std::string(70000, ' ')).find("bytes, over the"), std::string::npos);
    EXPECT_NE(why(std::string(100, '[') + std::string(100, ']')).find("nested deeper"), std::string::npos);
    EXPECT_EQ(why(head + R"("launches": [{"block": "32x8"}]})"), "(accepted)");
    EXPECT_EQ(e.launches[0].grid, (Dim3{25, 100, 1}));
}

// ---- the command line --------------------------------------------------------------------------

TEST_F(ExerciseTest, ListPrintsEveryExerciseNameFirst) {
    const auto r = run("exercise list");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::istringstream lines(r.output);
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line)) {
        ASSERT_LT(n, shipped_exercises().size()) << line;
        EXPECT_EQ(line.rfind(std::string(shipped_exercises()[n].name) + "  ", 0), 0u) << line;
        ++n;
    }
    EXPECT_EQ(n, shipped_exercises().size());
}

TEST_F(ExerciseTest, StarterAndSolutionPrintTheShippedKernels) {
    for (const char* what : {"starter", "solution"}) {
        const auto r = run(std::string("exercise ") + what + " box-blur");
        ASSERT_EQ(r.exit_code, 0) << r.output;
        std::ifstream f(std::string(KC_ASSETS) + "/exercises/box-blur/" + what + ".cu");
        const std::string file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        EXPECT_EQ(r.output, file) << what;
    }
    const auto unknown = run("exercise starter no-such-exercise");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.output.find("neither a shipped exercise"), std::string::npos) << unknown.output;
}

TEST_F(ExerciseTest, CheckExitsZeroOnePassOrFailWithJson) {
    const Exercise e = shipped("merge");
    const std::string good = write("good.cu", e.solution), bad = write("bad.cu", e.starter);
    const auto pass = run("exercise check merge --backend cpu --json --kernel " + good);
    ASSERT_EQ(pass.exit_code, 0) << pass.output;
    const nlohmann::json j = nlohmann::json::parse(pass.output);
    EXPECT_EQ(j["exercise"], "merge");
    EXPECT_EQ(j["passed"], true);
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["first_failed"], nullptr);
    EXPECT_EQ(j["launches"].size(), grading_launches(e).size());
    EXPECT_EQ(j["reads"]["max"], 2);
    const auto fail = run("exercise check merge --backend cpu --kernel " + bad);
    EXPECT_EQ(fail.exit_code, 1) << fail.output;
    EXPECT_NE(fail.output.find("fails with block 32x8, grid 25x100 on 800x800: "), std::string::npos) << fail.output;
}

TEST_F(ExerciseTest, CheckOfAQuotedGlobGivesOneJsonLinePerFile) {
    const Exercise e = shipped("gradient");
    const fs::path dir = scratch_dir() / "class";
    fs::create_directories(dir);
    std::ofstream(dir / "ada.cu") << e.solution;
    std::ofstream(dir / "bob.cu") << e.starter;
    std::ofstream(dir / "cy.cu") << e.solution;
    const auto r = run("exercise check gradient --backend cpu --json --kernel '" + (dir / "*.cu").string() + "'");
    EXPECT_EQ(r.exit_code, 1) << r.output; // bob fails
    std::istringstream lines(r.output);
    std::string line;
    std::vector<std::pair<std::string, bool>> seen;
    while (std::getline(lines, line)) {
        const nlohmann::json j = nlohmann::json::parse(line);
        seen.emplace_back(fs::path(j["file"].get<std::string>()).filename().string(), j["passed"].get<bool>());
    }
    const std::vector<std::pair<std::string, bool>> expected = {{"ada.cu", true}, {"bob.cu", false}, {"cy.cu", true}};
    EXPECT_EQ(seen, expected);
    const auto none = run("exercise check gradient --backend cpu --kernel '" + (dir / "*.cuh").string() + "'");
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.output.find("no file matches"), std::string::npos) << none.output;
}

TEST_F(ExerciseTest, BadInputExitsTwoWithAMessage) {
    const std::string good = write("ok.cu", shipped("gradient").solution);
    const struct {
        std::string args, says;
    } cases[] = {
        {"exercise check nope --kernel " + good, "neither a shipped exercise"},
        {"exercise check gradient --kernel " + (scratch_dir() / "missing.cu").string(), "cannot read"},
        {"exercise check gradient --kernel " + scratch_dir().string(), "it is a directory"},
        {"exercise check gradient --backend tpu --kernel " + good, "choose auto, gpu or cpu"},
        {"exercise check gradient", "--kernel is required"},
        {"exercise check gradient --backend cpu --kernel " + good, ""}, // with no compiler, below
    };
    for (std::size_t i = 0; i + 1 < std::size(cases); ++i) {
        const auto r = run(cases[i].args);
        EXPECT_EQ(r.exit_code, 2) << cases[i].args << "\n" << r.output;
        EXPECT_NE(r.output.find(cases[i].says), std::string::npos) << cases[i].args << "\n" << r.output;
    }
    const auto no_compiler = test::run_shell(test::test_env(test::test_data_home()) + "KCANVAS_CXX=/nonexistent/c++ " +
                                             std::string(KCANVAS_BIN) + " " + cases[5].args);
    EXPECT_EQ(no_compiler.exit_code, 2) << no_compiler.output;
    EXPECT_NE(no_compiler.output.find("KCANVAS_CXX names"), std::string::npos) << no_compiler.output;
}

// An exercise of one's own: a folder with the three files, given for NAME.
TEST_F(ExerciseTest, AFolderIsAnExerciseToo) {
    const Exercise g = shipped("gradient");
    const fs::path dir = scratch_dir() / "my-exercise";
    fs::create_directories(dir);
    std::ofstream(dir / "exercise.json") << R"({"kcanvas_exercise": 1, "title": "Mine", "description": "The gradient.",
        "target": {"op": "gradient"}, "launches": [{"block": "32x8", "canvas": "64x48"}], "vary": "none"})";
    std::ofstream(dir / "starter.cu") << g.starter;
    std::ofstream(dir / "solution.cu") << g.solution;
    const auto r = run("exercise check " + dir.string() + " --backend cpu --kernel " + (dir / "solution.cu").string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("my-exercise passes 1 launch on the cpu backend"), std::string::npos) << r.output;
    fs::remove(dir / "starter.cu");
    const auto missing = run("exercise starter " + dir.string());
    EXPECT_EQ(missing.exit_code, 2) << missing.output;
    EXPECT_NE(missing.output.find("starter.cu"), std::string::npos) << missing.output;
}

// README's "Exercises" lists every shipped exercise ("- `name`: ...") and no other.
TEST_F(ExerciseTest, TheReadmeListsEveryShippedExercise) {
    std::ifstream in(std::string(KC_ASSETS) + "/../README.md");
    ASSERT_TRUE(in);
    std::vector<std::string> listed;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## ")) inside = line == "## Exercises";
        if (inside && line.starts_with("- `")) listed.push_back(line.substr(3, line.find('`', 3) - 3));
    }
    std::vector<std::string> shipped_names;
    for (const ShippedExercise& s : shipped_exercises()) shipped_names.emplace_back(s.name);
    EXPECT_EQ(listed, shipped_names);
}

// ---- progress ----------------------------------------------------------------------------------

TEST(ExerciseProgressTest, PassesAreKeptAndReadBack) {
    const fs::path file = scratch_dir() / "progress" / "exercise-progress.json";
    fs::remove_all(file.parent_path());
    ExerciseProgress p(file);
    EXPECT_EQ(p.load(), std::nullopt); // no file yet: no progress
    EXPECT_FALSE(p.passed("gradient"));
    EXPECT_EQ(p.mark_passed("gradient"), std::nullopt);
    EXPECT_EQ(p.mark_passed("box-blur"), std::nullopt);
    ExerciseProgress again(file);
    EXPECT_EQ(again.load(), std::nullopt);
    EXPECT_TRUE(again.passed("gradient"));
    EXPECT_TRUE(again.passed("box-blur"));
    EXPECT_FALSE(again.passed("chess"));
    EXPECT_NE(again.mark_passed("../etc"), std::nullopt);
    std::ifstream f(file);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(nlohmann::json::parse(text), nlohmann::json::parse(R"({"kcanvas_exercise_progress": 1,
        "passed": ["box-blur", "gradient"]})"));
}

TEST(ExerciseProgressTest, AnUnreadableFileIsKeptAsideNeverWrittenOver) {
    const fs::path dir = scratch_dir() / "progress-bad";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "exercise-progress.json";
    const std::string corrupt = R"({"kcanvas_exercise_progress": 1, "passed": ["gradient", )";
    std::ofstream(file) << corrupt;
    ExerciseProgress p(file);
    const auto why = p.load();
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("kept aside"), std::string::npos) << *why;
    EXPECT_FALSE(p.passed("gradient"));
    std::string note;
    EXPECT_EQ(p.mark_passed("chess", &note), std::nullopt);
    EXPECT_NE(note.find("unreadable-1"), std::string::npos) << note;
    std::ifstream kept(dir / "exercise-progress.json.unreadable-1");
    const std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, corrupt);
    ExerciseProgress again(file);
    EXPECT_EQ(again.load(), std::nullopt);
    EXPECT_TRUE(again.passed("chess"));
    // Too big to be progress: refused before it is parsed.
    std::ofstream(file) << std::string(kMaxProgressBytes + 1, ' ');
    const auto big = again.load();
    ASSERT_TRUE(big);
    EXPECT_NE(big->find("over the"), std::string::npos) << *big;
}

} // namespace
} // namespace kc
