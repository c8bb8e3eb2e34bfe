// Lessons: the shipped ones read and pass their check on the CPU backend, their questions get the
// model's answers (worked out by hand below from the launch), a broken step is named, and the
// command line's list, check and export behave as documented.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "app/lesson/lesson.h"
#include "app/lesson/lesson_check.h"
#include "tests/support/gif_file.h"
#include "tests/support/image_file.h"
#include "tests/support/reference.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

using test::run;

Lesson shipped(const std::string& name) {
    Lesson l;
    const auto e = load_lesson(name, l);
    EXPECT_EQ(e, std::nullopt) << *e;
    return l;
}

StepPainter cpu_painter() {
    setenv("KCANVAS_KERNEL_HOST", KC_KERNEL_HOST, 1); // the sandbox's host of this build, not an installed one
    return cpu_step_painter();
}

// The answers of a lesson's steps, "" where a step asks nothing.
std::vector<std::string> answers(const Lesson& l) {
    std::vector<std::string> out;
    for (const StepReport& r : check_lesson(l, {}, {})) {
        EXPECT_EQ(r.problem, std::nullopt) << step_name(l, r.index) << ": " << *r.problem;
        out.push_back(r.answer ? r.answer->text : "");
    }
    return out;
}

TEST(Lessons, EveryShippedLessonReadsAndPassesItsCheckOnTheCpu) {
    ASSERT_GE(shipped_lessons().size(), 4u);
    for (const ShippedLesson& s : shipped_lessons()) {
        const Lesson l = shipped(std::string(s.name));
        ASSERT_FALSE(l.steps.empty()) << s.name;
        for (const StepReport& r : check_lesson(l, cpu_painter(), {})) {
            EXPECT_EQ(r.problem, std::nullopt) << s.name << " " << step_name(l, r.index) << ": " << *r.problem;
            EXPECT_EQ(l.steps[r.index].question.has_value(), r.answer.has_value())
                << s.name << " " << step_name(l, r.index);
        }
    }
}

// The tutorial's launch: pixel (500, 420) is i = 336500, block 336 = (16, 4); thread (3, 2) of
// block (1, 0) is i = 1000 + 2*50 + 3 = 1103, pixel (303, 1); 80x4 blocks leave 800*800 - 320000.
TEST(Lessons, TutorialAnswersAreTheLinearIndexWorkedByHand) {
    const std::vector<std::string> expected = {"block (16, 4)", "pixel (303, 1)", "0", "320000", "", "",
                                               "block (79, 7)"};
    EXPECT_EQ(answers(shipped("tutorial")), expected);
}

// Lesson 1's pictures are the tutorial's, pixel for pixel: drawGradient, drawChess with 80-px
// cells and the merge in C integers (references from the tutorial's formulas, tests/support/reference.h).
TEST(Lessons, TutorialPicturesArePixelExact) {
    const Lesson l = shipped("tutorial");
    const StepPainter paint = cpu_painter();
    const auto expect_step = [&](std::size_t step, auto reference) {
        std::vector<Pixel> pixels;
        ASSERT_EQ(paint(l.steps[step].preset, pixels), std::nullopt);
        ASSERT_EQ(pixels.size(), 800u * 800u);
        for (int y = 0; y < 800; ++y)
            for (int x = 0; x < 800; ++x)
                ASSERT_TRUE(ref::same_rgb(pixels[std::size_t(y) * 800 + x], reference(x, y)))
                    << step_name(l, step) << ": pixel " << x << "," << y;
    };
    expect_step(0, [](int x, int y) { return ref::gradient(x, y, 800, 800); });
    expect_step(4, [](int x, int y) { return ref::checkerboard(x, y, 80); });
    expect_step(5, [](int x, int y) { return ref::tutorial_merge(x, y, 800, 800, 80); });
}

// Block 32x8 in 2d: thread (5, 7) of block (3, 2) is x = 3*32 + 5, y = 2*8 + 7. On 810x600 the grid
// rounds up to 26 x 75 = 832 x 600 threads, 13200 of them idle; 25 x 75 leaves 10 columns of 600
// pixels; 26 x 76 has 832 x 608 - 810 x 600 idle. Without the check on y, thread (0, 0) of block
// (0, 75) is y = 600: out[600 * 810] = out[486000], the first index past the end.
TEST(Lessons, IndexingAnswersFollowTheTwoDFormulaAndNameTheWritePastTheEnd) {
    const Lesson l = shipped("indexing");
    const std::vector<std::string> expected = {"pixel (101, 23)", "13200", "6000", "19856", "486000", "19856"};
    EXPECT_EQ(answers(l), expected);
    const LessonStep& s = l.steps[4];
    const auto a = answer_question(*s.question, s.preset, {});
    ASSERT_TRUE(std::holds_alternative<Answer>(a));
    const std::string why = std::get<Answer>(a).why;
    EXPECT_NE(why.find("thread (0,0) of block (0,75) wrote out[486000]: past the end (810x600 = 486000 pixels); its "
                       "y = blockIdx.y*blockDim.y + threadIdx.y = 600 >= height 600"),
              std::string::npos)
        << why;
    EXPECT_TRUE(reply_matches(std::get<Answer>(a), "486000"));
}

// The step without the check on y runs the student's kernel (on the CPU here, in the sandbox):
// checked mode drops the writes past the end, and every pixel of the canvas is the gradient's.
TEST(Lessons, TheKernelWithoutTheCheckOnYPaintsTheGradientAndWritesNothingPastTheEnd) {
    const Lesson l = shipped("indexing");
    std::vector<Pixel> pixels;
    const auto e = cpu_painter()(l.steps[4].preset, pixels);
    if (e && e->find("C++ compiler") != std::string::npos) GTEST_SKIP() << *e;
    ASSERT_EQ(e, std::nullopt) << *e;
    ASSERT_EQ(pixels.size(), 810u * 600u);
    for (int y = 0; y < 600; ++y)
        for (int x = 0; x < 810; ++x)
            ASSERT_TRUE(ref::same_rgb(pixels[std::size_t(y) * 810 + x], ref::gradient(x, y, 810, 600)))
                << x << "," << y;
}

// 32x8 in 2d: 128 contiguous bytes, 4 sectors, 1 line; columns: 32 lines; 1x32: 32 sectors.
TEST(Lessons, WarpAnswersCountSectorsAndLines) {
    const std::vector<std::string> expected = {"4", "1", "32", "timed only on a GPU", "32", "timed only on a GPU"};
    EXPECT_EQ(answers(shipped("warps")), expected);
}

// An H200 by threads: 256-thread blocks, 8 an SM, 1056 a wave: 2500 = 2 x 1056 + 388 (3 waves);
// 1024 threads: 2 an SM, 264 a wave: 625 = 2 x 264 + 97; the tutorial's 640 = 2 x 264 + 112; on 46
// SMs of 1536 threads a 1000-thread block (32 warps) fits once: 640 / 46 = 13 waves and 42.
TEST(Lessons, OccupancyAnswersCountWavesAndTails) {
    const std::vector<std::string> expected = {"3", "388", "3", "112", "14"};
    EXPECT_EQ(answers(shipped("occupancy")), expected);
}

// The histogram's own launch: 1024 blocks of 256 threads striding by 262144: pixel i = 336500 is
// reached on the second pass by thread 74356 = block 290, thread 116.
TEST(Lessons, SharedMemoryAnswersFollowTheGridStride) {
    const std::vector<std::string> expected = {"block (290, 0)", "timed only on a GPU", "0", "timed only on a GPU"};
    EXPECT_EQ(answers(shipped("shared-memory")), expected);
}

// On a GPU the timer answers "which is faster": a stand-in timer here times the columns mapping at
// 4x the 2d one; the answer is A, with both times and the cache lines, and B is not accepted.
TEST(Lessons, AFasterQuestionIsAnsweredByTheTimerWhereThereIsOne) {
    const Lesson l = shipped("warps");
    const LessonStep& s = l.steps[3]; // 2d or columns
    ASSERT_TRUE(s.question && s.question->kind == QuestionKind::Faster);
    const KernelTimer timer = [](const Preset& p) {
        return std::optional<double>(p.job.launch.mapping == Mapping::Columns ? 40.0 : 10.0);
    };
    const auto a = answer_question(*s.question, s.preset, timer);
    ASSERT_TRUE(std::holds_alternative<Answer>(a));
    const Answer& answer = std::get<Answer>(a);
    EXPECT_FALSE(answer.skipped);
    EXPECT_EQ(answer.text, "A (2d, block 32x8)");
    EXPECT_NE(answer.why.find("A 10.0 us, B 40.0 us (4.00x)"), std::string::npos) << answer.why;
    EXPECT_NE(answer.why.find("1 cache line in A, 32 in B"), std::string::npos) << answer.why;
    EXPECT_TRUE(reply_matches(answer, "a"));
    EXPECT_FALSE(reply_matches(answer, "B"));
    for (const StepReport& r : check_lesson(l, {}, timer)) // every timing answered, none skipped
        EXPECT_FALSE(r.answer && r.answer->skipped) << step_name(l, r.index);
}

TEST(Lessons, RepliesMatchTheSameNumbersInOrder) {
    Answer block;
    block.text = "block (16, 4)", block.values = {16, 4};
    EXPECT_TRUE(reply_matches(block, "16,4"));
    EXPECT_TRUE(reply_matches(block, "(16, 4)"));
    EXPECT_TRUE(reply_matches(block, "block 16 4"));
    EXPECT_FALSE(reply_matches(block, "4, 16"));
    EXPECT_FALSE(reply_matches(block, "16"));
    EXPECT_FALSE(reply_matches(block, ""));
    Answer letter;
    letter.letter = 'B';
    EXPECT_TRUE(reply_matches(letter, " b "));
    EXPECT_FALSE(reply_matches(letter, "A"));
    EXPECT_FALSE(reply_matches(letter, "BA"));
}

TEST(Lessons, AClickMatchesWhenTheInverseMappingNamesTheThread) {
    const Lesson l = shipped("tutorial");
    const LessonStep& s = l.steps[1]; // thread (3, 2) of block (1, 0): pixel (303, 1)
    ASSERT_TRUE(s.question);
    EXPECT_TRUE(click_matches(*s.question, s.preset, 303, 1));
    EXPECT_FALSE(click_matches(*s.question, s.preset, 302, 1));
    EXPECT_FALSE(click_matches(*s.question, s.preset, -1, 900));
}

const char* kBroken = R"({"kcanvas_lesson": 1, "title": "Broken", "steps": [
  {"title": "Fine", "caption": "ok", "preset": {"op": "gradient"}, "question": {"kind": "uncovered_pixels"}},
  {"title": "Too far", "caption": "asks about a pixel off the canvas", "question": {"kind": "block_of_pixel", "pixel": [900, 10]}}
]})";

TEST(Lessons, ABrokenStepIsNamedByTheCheck) {
    Lesson l;
    ASSERT_EQ(parse_lesson(kBroken, "broken", l), std::nullopt);
    const auto reports = check_lesson(l, cpu_painter(), {});
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_EQ(reports[0].problem, std::nullopt);
    ASSERT_TRUE(reports[1].problem);
    EXPECT_NE(reports[1].problem->find("pixel (900, 10) is outside the 800x800 canvas"), std::string::npos)
        << *reports[1].problem;
}

TEST(Lessons, BadLessonFilesAreRefusedNamingTheStepAndKey) {
    struct Case {
        std::string text, message;
    };
    const std::string head = R"({"kcanvas_lesson": 1, "title": "T", "steps": [)";
    for (const Case& c : {
             Case{"{}", "kcanvas_lesson: missing"},
             Case{R"({"kcanvas_lesson": 2, "title": "T", "steps": []})", "version 2"},
             Case{head + "]}", "steps: expected a list of at least one step"},
             Case{head + R"({"title": "A", "caption": "c", "question": {"kind": "guess"}}]})",
                  "step 1 ('A'): question.kind: 'guess' is not one of uncovered_pixels"},
             Case{head + R"({"title": "A", "caption": "c", "preset": {"launch": {"block": "64x32"}}}]})",
                  "step 1 ('A'): preset.launch.block: 64x32 has 2048 threads, over 1024"},
             Case{head + R"({"title": "A", "caption": "c", "preset": {"opp": "x"}}]})", "step 1 ('A'): preset.opp"},
             Case{head + R"({"title": "A", "caption": "c\u001b[2J"}]})", "control character"},
             Case{head + R"({"title": "A"}]})", "step 1 ('A'): caption: missing"},
             Case{head + R"({"title": "A", "caption": "c", "question": {"kind": "pixel_of_thread", "block": [1]}}]})",
                  "question.block: expected [x, y]"},
             Case{"{\"kcanvas_lesson\": 1,", "not valid JSON at line 1"},
         }) {
        Lesson l;
        const auto e = parse_lesson(c.text, "t", l);
        ASSERT_TRUE(e) << c.text;
        EXPECT_NE(e->find(c.message), std::string::npos) << *e;
    }
}

// The shipped lessons with random bytes changed, cut short or repeated: each is read or refused
// with a short message holding nothing raw for a terminal, and what reads is answered by the model
// without a crash (a poor man's fuzzer, run with every test; ASan and UBSan builds see more).
TEST(Lessons, MangledLessonsAreReadOrRefusedNeverCrash) {
    std::mt19937 rng(28);
    int read = 0, refused = 0;
    for (const ShippedLesson& s : shipped_lessons())
        for (int round = 0; round < 1500; ++round) {
            std::string text(s.source);
            const int edits = 1 + int(rng() % 4);
            for (int e = 0; e < edits && !text.empty(); ++e) {
                const std::size_t at = rng() % text.size();
                switch (rng() % 4) {
                case 0:
                    text[at] = static_cast<char>(rng() % 256);
                    break;
                case 1:
                    text.resize(at);
                    break;
                case 2:
                    text.insert(at, text.substr(at, rng() % 64));
                    break;
                default:
                    text[at] = "0123456789[]{}\",:-"[rng() % 18];
                    break;
                }
            }
            Lesson l;
            if (const auto e = parse_lesson(text, "mangled", l)) {
                ++refused;
                EXPECT_LT(e->size(), 1000u) << *e;
                EXPECT_EQ(e->find('\x1b'), std::string::npos) << *e;
                continue;
            }
            ++read;
            (void)check_lesson(l, {}, {});
        }
    EXPECT_GT(read, 0);
    EXPECT_GT(refused, 0);
}

TEST(LessonCli, ListPrintsEveryShippedLessonNameFirst) {
    const auto r = run("lesson list");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::istringstream lines(r.output);
    std::size_t i = 0;
    for (std::string line; std::getline(lines, line); ++i) {
        ASSERT_LT(i, shipped_lessons().size()) << r.output;
        EXPECT_TRUE(line.starts_with(std::string(shipped_lessons()[i].name) + "  ")) << line;
    }
    EXPECT_EQ(i, shipped_lessons().size());
}

TEST(LessonCli, CheckExitsOneNamingTheBrokenStep) {
    const std::string path = ::testing::TempDir() + "/kc_broken_lesson.json";
    std::ofstream(path) << kBroken;
    const auto r = run("lesson check --backend cpu " + path);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("lesson kc_broken_lesson: step 2 ('Too far') is broken: the question cannot be answered: "
                            "pixel (900, 10) is outside the 800x800 canvas"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("step 1 ('Fine'): ok; answer 0"), std::string::npos) << r.output;
}

TEST(LessonCli, BadInputExitsTwoWithTheReason) {
    auto r = run("lesson check no-such-lesson");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("'no-such-lesson' is neither a lesson file nor a shipped lesson (tutorial"),
              std::string::npos)
        << r.output;
    r = run("lesson check /no/such/file.json");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("/no/such/file.json"), std::string::npos) << r.output;
    r = run("lesson");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    r = run("lesson export tutorial");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
    // A read-only step file is refused before any file is written (the first step's stays as it was).
    const std::string dir = ::testing::TempDir() + "/kc_lesson_readonly";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/step-01.txt") << "mine";
    std::ofstream(dir + "/step-03.png") << "mine";
    std::filesystem::permissions(dir + "/step-03.png", std::filesystem::perms::owner_read);
    r = run("lesson export tutorial --backend cpu --out " + dir);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("step-03.png' is read-only"), std::string::npos) << r.output;
    std::ifstream mine(dir + "/step-01.txt");
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(mine)), std::istreambuf_iterator<char>()), "mine");
    r = run("lesson export tutorial --out /no/such/folder/x");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("cannot make the folder"), std::string::npos) << r.output;
}

TEST(LessonCli, ExportWritesEachStepsPictureAndText) {
    const std::string dir = ::testing::TempDir() + "/kc_lesson_export";
    std::filesystem::remove_all(dir);
    const auto r = run("lesson export tutorial --backend cpu --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (int i = 1; i <= 7; ++i) {
        const std::string base = dir + "/step-0" + std::to_string(i);
        EXPECT_GT(std::filesystem::file_size(base + ".png"), 100u) << base;
        EXPECT_TRUE(std::filesystem::exists(base + ".txt")) << base;
    }
    std::ifstream text(dir + "/step-01.txt");
    const std::string t((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
    EXPECT_NE(t.find("step 1 of 7: drawGradient"), std::string::npos) << t;
    EXPECT_NE(t.find("Question: Which block paints pixel (500, 420)?"), std::string::npos) << t;
    EXPECT_NE(t.find("Answer: block (16, 4)"), std::string::npos) << t;
}

// A step-mode step becomes a GIF of its blocks appearing, ending on the step's picture.
TEST(LessonCli, ExportRecordsAStepModeStepAsAGif) {
    const std::string dir = ::testing::TempDir() + "/kc_lesson_export_gif";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/steps.json") << R"({"kcanvas_lesson": 1, "title": "Steps", "steps": [
      {"title": "Half", "caption": "half the blocks", "step_blocks": 6,
       "preset": {"op": "gradient", "canvas": {"width": 96, "height": 64}, "launch": {"block": "32x8"}}}]})";
    const auto r = run("lesson export --backend cpu " + dir + "/steps.json --out " + dir + "/out");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const test::DecodedGif gif = test::decode_gif(dir + "/out/step-01.gif");
    ASSERT_TRUE(gif.ok) << r.output;
    EXPECT_EQ(gif.frames.size(), 31u);
    EXPECT_EQ(gif.width, 96);
    // The step's picture: 6 of the 24 blocks painted in launch order, the first two block rows.
    const test::LoadedImage picture = test::load_png(dir + "/out/step-01.png");
    ASSERT_EQ(picture.width, 96) << r.output;
    EXPECT_TRUE(ref::same_rgb(picture.pixels[15 * 96 + 95], ref::gradient(95, 15, 96, 64)));
    EXPECT_FALSE(ref::same_rgb(picture.pixels[20 * 96], ref::gradient(0, 20, 96, 64)));
}

} // namespace
} // namespace kc
