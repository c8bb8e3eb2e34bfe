// The kernel editor's logic without a window: which key presses are shortcuts, the starters'
// answers kept out of the editor, the compile log's error lines, and the autosave's timing and
// atomic writes.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "app/core/autosave.h"
#include "app/core/data_dir.h"
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
    // A plain file where the autosave's folder should be: the write fails.
    const fs::path blocked = file / "autosave.cu";
    Autosave autosave(blocked, "start");
    const auto failed = autosave.flush("new");
    ASSERT_TRUE(failed);
    EXPECT_FALSE(failed->ok);
    EXPECT_NE(failed->message.find("autosave failed: cannot write '" + blocked.string() + "'"), std::string::npos)
        << failed->message;
    // Nothing but the one file: no temporary file is left behind.
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
    EXPECT_EQ(entries, 1);
    EXPECT_EQ(contents(file), "previous");
}

// The editor started from --kernel (or a preset): autosave.cu still holds an earlier session's
// work the user has not seen. The first write keeps it as an earlier version first (issue 24 #5).
TEST_F(AutosaveTest, AnEarlierSessionsTextIsKeptBeforeItIsWrittenOver) {
    const fs::path file = dir / "autosave.cu";
    ASSERT_FALSE(write_text_file_atomically(file.string(), "// an earlier session's work"));
    Autosave autosave(file, "// from --kernel");
    EXPECT_TRUE(autosave.notice().empty());
    const auto written = autosave.flush("// from --kernel, edited");
    ASSERT_TRUE(written);
    ASSERT_TRUE(written->ok) << written->message;
    EXPECT_EQ(contents(file), "// from --kernel, edited");
    const auto versions = earlier_versions(dir);
    ASSERT_EQ(versions.size(), 1u);
    EXPECT_TRUE(versions[0].unseen);
    EXPECT_EQ(contents(versions[0].file), "// an earlier session's work");
    EXPECT_NE(written->message.find("kept as " + versions[0].file.string()), std::string::npos) << written->message;
    // Its own text is no stranger: the next writes keep nothing more.
    ASSERT_TRUE(autosave.flush("// edited again"));
    EXPECT_EQ(earlier_versions(dir).size(), 1u);
}

TEST_F(AutosaveTest, TextTheEditorRestoredIsNotKeptTwice) {
    const fs::path file = dir / "autosave.cu";
    ASSERT_FALSE(write_text_file_atomically(file.string(), "// restored"));
    Autosave autosave(file, "// restored", std::string("// restored"));
    ASSERT_TRUE(autosave.flush("// restored, edited")->ok);
    EXPECT_TRUE(earlier_versions(dir).empty());
    // Another window wrote it meanwhile: that text is kept before it is replaced.
    ASSERT_FALSE(write_text_file_atomically(file.string(), "// another window's"));
    ASSERT_TRUE(autosave.flush("// mine")->ok);
    ASSERT_EQ(earlier_versions(dir).size(), 1u);
    EXPECT_EQ(contents(earlier_versions(dir)[0].file), "// another window's");
}

// An autosave.cu that cannot be read is never written over: the writes go to another name, which
// notice() names with the reason (issue 24 #6).
TEST_F(AutosaveTest, AFileThatCannotBeReadIsNeverWrittenOver) {
    const fs::path file = dir / "autosave.cu";
    const auto check = [&](const std::string& kind, const std::string& reason) {
        SCOPED_TRACE(kind);
        Autosave autosave(file, "start");
        EXPECT_NE(autosave.notice().find(reason), std::string::npos) << autosave.notice();
        EXPECT_NE(autosave.notice().find("this session autosaves to " + autosave.file().string()), std::string::npos);
        EXPECT_NE(autosave.file(), file);
        const auto written = autosave.flush("// typed");
        ASSERT_TRUE(written && written->ok) << (written ? written->message : "nothing written");
        EXPECT_EQ(contents(autosave.file()), "// typed");
    };
    fs::create_directories(file / "inside");
    check("a directory", "it is a directory");
    EXPECT_TRUE(fs::is_directory(file / "inside"));
    fs::remove_all(file);
    ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    check("a pipe", "not a regular file");
    EXPECT_TRUE(fs::is_fifo(file));
    fs::remove(file);
    fs::create_symlink("/dev/zero", file);
    check("a link to /dev/zero", "not a regular file");
    EXPECT_TRUE(fs::is_symlink(file));
    fs::remove(file);
    std::ofstream(file) << std::string(kMaxKernelFileBytes + 1, 'x');
    check("too large", "bytes, over the");
    EXPECT_EQ(fs::file_size(file), kMaxKernelFileBytes + 1);
}

TEST_F(AutosaveTest, CopiesBeyondTheLimitGoButNeverUnseenOnes) {
    fs::create_directories(dir);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(keep_earlier_version(dir, "unseen " + std::to_string(i), true).file);
    std::vector<fs::path> seen;
    for (std::size_t i = 0; i < kKeptVersions + 5; ++i)
        seen.push_back(*keep_earlier_version(dir, "seen " + std::to_string(i), false).file);
    const auto versions = earlier_versions(dir);
    ASSERT_EQ(versions.size(), kKeptVersions + 3);
    EXPECT_EQ(std::count_if(versions.begin(), versions.end(), [](const auto& v) { return v.unseen; }), 3);
    EXPECT_EQ(versions.front().file, seen.back()); // newest first
    EXPECT_FALSE(fs::exists(seen.front()));        // the oldest seen ones went
    EXPECT_TRUE(fs::exists(seen[5]));
    // Opened from the menu, an unseen one becomes ordinary (and may be pruned in turn).
    const fs::path unseen = versions.back().file;
    ASSERT_TRUE(versions.back().unseen);
    const fs::path renamed = mark_seen(unseen);
    EXPECT_FALSE(fs::exists(unseen));
    EXPECT_EQ(contents(renamed), "unseen 0");
    EXPECT_EQ(renamed.filename().string().find("earlier-session"), std::string::npos);
}

// A replacement keeps what it took out; Undo replace swaps it back, and again (a redo).
TEST(KernelEditor, UndoReplaceSwapsTheReplacedTextBack) {
    KernelEditorState k;
    k.source = "// typed", k.saved_source = "";
    EXPECT_TRUE(k.worth_keeping());
    replace_text(k, starter_text(*find_starter("fix_me")));
    EXPECT_FALSE(k.unsaved());
    ASSERT_TRUE(k.replaced);
    EXPECT_EQ(k.replaced->source, "// typed");
    const std::string starter = k.source;
    ASSERT_TRUE(undo_replace(k));
    EXPECT_EQ(k.source, "// typed");
    EXPECT_TRUE(k.unsaved()); // still in no file: Ctrl+Q asks for it
    ASSERT_TRUE(undo_replace(k));
    EXPECT_EQ(k.source, starter);
}

TEST(KernelEditor, LineSpanFindsALinesBytes) {
    EXPECT_EQ(line_span("ab\ncde\nf", 1), (std::pair<int, int>{0, 2}));
    EXPECT_EQ(line_span("ab\ncde\nf", 2), (std::pair<int, int>{3, 6}));
    EXPECT_EQ(line_span("ab\ncde\nf", 3), (std::pair<int, int>{7, 8}));
    EXPECT_EQ(line_span("ab\n", 9), (std::pair<int, int>{3, 3}));
}

// Save never writes into kcanvas's installed data folder (a starter opened from there).
TEST(KernelEditor, SaveGoesToTheUsersFolderNotTheInstalledOne) {
    ASSERT_TRUE(data_dir().found);
    const std::string shipped = (*data_dir().found / "kernels" / "fix_me.cu").string();
    ASSERT_TRUE(user_data_dir());
    EXPECT_EQ(kernel_save_target(shipped, "/x/kernel.cu"), (*user_data_dir() / "fix_me.cu").string());
    EXPECT_EQ(kernel_save_target("/tmp/mine.cu", "/x/kernel.cu"), "/tmp/mine.cu");
    EXPECT_EQ(kernel_save_target("", "/x/kernel.cu"), "/x/kernel.cu");
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
