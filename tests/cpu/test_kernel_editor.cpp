// The kernel editor's logic without a window: which key presses are shortcuts, the starters'
// answers kept out of the editor, the compile log's error lines, and the autosave's timing and
// atomic writes.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/core/autosave.h"
#include "app/core/kernel_editor.h"
#include "app/core/kernel_files.h"
#include "app/window/key_events.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

TEST(Shortcuts, F12SavesAndCtrlQQuitsEvenWhileTyping) {
    for (const bool typing : {false, true}) {
        EXPECT_EQ(shortcut_for({GLFW_KEY_F12, 0}, typing), Shortcut::SaveCanvas);
        EXPECT_EQ(shortcut_for({GLFW_KEY_Q, GLFW_MOD_CONTROL}, typing), Shortcut::Quit);
        // Caps Lock and Num Lock are no modifiers of a shortcut.
        EXPECT_EQ(shortcut_for({GLFW_KEY_Q, GLFW_MOD_CONTROL | GLFW_MOD_NUM_LOCK | GLFW_MOD_CAPS_LOCK}, typing),
                  Shortcut::Quit);
    }
}

TEST(Shortcuts, OtherKeysAreNone) {
    EXPECT_EQ(shortcut_for({GLFW_KEY_Q, 0}, false), std::nullopt);
    EXPECT_EQ(shortcut_for({GLFW_KEY_Q, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT}, false), std::nullopt);
    EXPECT_EQ(shortcut_for({GLFW_KEY_F12, GLFW_MOD_CONTROL}, false), std::nullopt);
    EXPECT_EQ(shortcut_for({GLFW_KEY_ESCAPE, 0}, false), std::nullopt); // Esc never quits
}

TEST(Starters, FixMeKeepsItsAnswerOutOfTheEditor) {
    const StarterKernel* fix_me = find_starter("fix_me");
    ASSERT_NE(fix_me, nullptr);
    KernelEditorState k;
    load_starter(k, *fix_me);
    EXPECT_EQ(k.source.find("Answer"), std::string::npos) << k.source;
    EXPECT_TRUE(k.source.ends_with("}\n")) << k.source;
    EXPECT_NE(k.answer.find("Answer: blockIdx.x * blockDim.x + threadIdx.x"), std::string::npos) << k.answer;
    EXPECT_EQ(k.answer.find("//"), std::string::npos) << k.answer; // shown as prose, in two paragraphs
    EXPECT_EQ(k.answer.find("\n\n"), k.answer.find("\nAnswer:") - 1) << k.answer;
    EXPECT_EQ(std::count(k.answer.begin(), k.answer.end(), '\n'), 2) << k.answer;
    EXPECT_EQ(k.file_name, "fix_me.cu");
    EXPECT_FALSE(k.unsaved());
    EXPECT_TRUE(k.compile_wanted);
}

TEST(Starters, ThoseWithoutATrailingCommentStayWhole) {
    for (const StarterKernel& starter : starter_kernels()) {
        if (starter.name == "fix_me") continue;
        const SplitSource split = split_trailing_comments(starter.source);
        EXPECT_EQ(split.code, starter.source) << starter.name;
        EXPECT_TRUE(split.answer.empty()) << starter.name;
    }
    EXPECT_EQ(split_trailing_comments("// only a comment\n").code, "// only a comment\n");
}

TEST(CompileLog, ErrorLinesAreTheEditorsOwn) {
    const std::string log = "fix_me.cu(7): error: identifier \"oops\" is undefined\n"
                            "fix_me.cu(3): warning: variable \"q\" was declared but never referenced\n"
                            "fix_me.cu(12): error: expected a \";\"\n"
                            "fix_me.cu(7): error: another one on line 7\n"
                            "prelude(4): error: not the user's line\n"
                            "3 errors detected in the compilation of \"fix_me.cu\".\n";
    EXPECT_EQ(error_lines(log, "fix_me.cu"), (std::vector<int>{7, 12}));
    EXPECT_TRUE(error_lines("", "kernel.cu").empty());
}

class AutosaveTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir = fs::path(::testing::TempDir()) /
              ("kc_autosave_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir);
    }
    static std::string contents(const fs::path& p) {
        std::string text;
        EXPECT_FALSE(read_text_file(p.string(), text)) << p;
        return text;
    }
    fs::path dir;
};

TEST_F(AutosaveTest, WritesAFewSecondsAfterAChangeAndAtQuit) {
    const fs::path file = dir / "kcanvas" / "autosave.cu";
    Autosave autosave(file, "start");
    const auto t0 = Autosave::Clock::now();
    EXPECT_FALSE(autosave.tick("start", t0)); // unchanged: nothing to write
    EXPECT_FALSE(autosave.tick("edited", t0));
    EXPECT_FALSE(autosave.tick("edited more", t0 + Autosave::kDelay / 2)); // typing: not a write per key
    EXPECT_FALSE(fs::exists(file));
    const auto written = autosave.tick("edited more", t0 + Autosave::kDelay);
    ASSERT_TRUE(written);
    EXPECT_TRUE(written->ok) << written->message;
    EXPECT_EQ(contents(file), "edited more");
    EXPECT_FALSE(autosave.tick("edited more", t0 + 3 * Autosave::kDelay)); // on disk already
    EXPECT_FALSE(autosave.flush("edited more"));
    const auto at_quit = autosave.flush("last words");
    ASSERT_TRUE(at_quit);
    EXPECT_TRUE(at_quit->ok);
    EXPECT_EQ(contents(file), "last words");
}

TEST_F(AutosaveTest, AFailedWriteSaysWhyAndKeepsThePreviousFile) {
    const fs::path file = dir / "autosave.cu";
    ASSERT_FALSE(write_text_file_atomically(file.string(), "previous"));
    // A directory where the file should be renamed: the write fails at the rename.
    const fs::path blocked = dir / "blocked.cu";
    fs::create_directories(blocked / "inside");
    Autosave autosave(blocked, "start");
    const auto failed = autosave.flush("new");
    ASSERT_TRUE(failed);
    EXPECT_FALSE(failed->ok);
    EXPECT_NE(failed->message.find("autosave failed: cannot write '" + blocked.string() + "'"), std::string::npos)
        << failed->message;
    EXPECT_TRUE(fs::is_directory(blocked / "inside"));
    // Nothing but the two entries: no temporary file is left behind.
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
    EXPECT_EQ(entries, 2);
    EXPECT_EQ(contents(file), "previous");
}

TEST(UserDataDir, FollowsXdgDataHomeElseHome) {
    const std::string saved_xdg = std::getenv("XDG_DATA_HOME") ? std::getenv("XDG_DATA_HOME") : "";
    ::setenv("XDG_DATA_HOME", "/tmp/xdg", 1);
    EXPECT_EQ(user_data_dir(), fs::path("/tmp/xdg/kcanvas"));
    ::unsetenv("XDG_DATA_HOME");
    if (const char* home = std::getenv("HOME"); home && *home) {
        EXPECT_EQ(user_data_dir(), fs::path(home) / ".local/share/kcanvas");
    }
    if (!saved_xdg.empty()) ::setenv("XDG_DATA_HOME", saved_xdg.c_str(), 1);
}

} // namespace
} // namespace kc
