// The kernel editor never loses a student's code (issues 24 #5-6, 25 #1, #4), driven through the
// real window by the script's input verbs (click, type, key): a starter, a file or an earlier
// version over typed text asks first, Discard keeps the text as an earlier version and Ctrl+Z
// brings it back; an earlier session's autosave is kept before it is written over and listed in
// "Earlier versions"; an autosave that cannot be read is named and never written over; the editor
// sits beside the canvas, Ctrl+Enter keeps the keyboard in it; Save never writes into kcanvas's
// installed data folder.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "app/core/autosave.h"
#include "app/core/data_dir.h"
#include "app/core/kernel_files.h"
#include "tests/support/gui_script.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

struct EditorRun {
    fs::path dir;      // the working directory, the script
    fs::path autosave; // <XDG_DATA_HOME>/kcanvas/autosave.cu
    test::ProcessResult result;
    fs::path data() const { return autosave.parent_path(); }
};

// Runs the window on `script` (a 160x100 canvas, the CPU backend, the default 1280x860 window).
// `fresh`: start from an empty dir (false: keep the last run's data, a restart).
EditorRun run_editor(const std::string& name, const std::string& script, bool fresh = true,
                     const std::string& args = "") {
    EditorRun run{fs::path(::testing::TempDir()) / name, {}, {}};
    const fs::path data_home = run.dir / "data";
    run.autosave = data_home / "kcanvas" / "autosave.cu";
    if (fresh) fs::remove_all(run.dir);
    fs::create_directories(data_home / "kcanvas");
    std::ofstream(run.dir / "script.txt") << script;
    run.result =
        test::run_shell("cd '" + run.dir.string() + "' && " + test::test_env(data_home.string()) + "timeout 120 " +
                        KCANVAS_BIN + " --backend cpu --size 160x100 " + args + " --script script.txt");
    return run;
}

std::string file_text(const fs::path& path) {
    std::string text;
    if (auto e = read_text_file(path.string(), text)) ADD_FAILURE() << *e;
    return text;
}

// Each text the editor showed, in the order of the script's `print Kernel source` (all its lines).
std::vector<std::string> editor_texts(const std::string& out) {
    std::vector<std::string> shown;
    for (std::size_t at = 0; (at = out.find("widget Kernel source: ", at)) != std::string::npos; ++at)
        shown.push_back(out.substr(at, out.find("\nscript:", at) - at));
    return shown;
}
std::string last_editor_text(const std::string& out) {
    const auto shown = editor_texts(out);
    return shown.empty() ? std::string() : shown.back();
}

// The editor with an edit typed into it: in no file yet.
const std::string kTyped = "op user_kernel\nwait 2\nclick Kernel source\ntype // my typed work\nwait 2\n";
const std::string kAsks = "Loading the starter Fix me";

TEST(GuiEditor, AStarterOrAFileOverTypedTextAsksFirstAndCancelKeepsIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const fs::path other = fs::path(::testing::TempDir()) / "kc_editor_cancel_src" / "other.cu";
    fs::create_directories(other.parent_path());
    std::ofstream(other) << "// another file\n";
    const EditorRun run = run_editor(
        "kc_editor_cancel", kTyped + "click Starter\nclick Fix me\nexpect " + kAsks +
                                "\nexpect changes that are not saved\nclick Cancel\nwait 3\nexpect-not " + kAsks +
                                "\nprint Kernel source\n"
                                // Load .cu asks the same, and Esc cancels it.
                                "click File\ntype " +
                                other.string() + "\nclick Load .cu\nexpect Loading " + other.string() +
                                " replaces it\nkey escape\nwait 3\nexpect-not replaces it\n"
                                "print Kernel source\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::vector<std::string> shown = editor_texts(run.result.output);
    ASSERT_EQ(shown.size(), 2u) << run.result.output;
    for (const std::string& text : shown) EXPECT_NE(text.find("// my typed work"), std::string::npos) << text;
}

TEST(GuiEditor, DiscardKeepsTheTextAsAnEarlierVersionAndCtrlZBringsItBack) {
    KC_SKIP_WITHOUT_DISPLAY();
    const EditorRun run =
        run_editor("kc_editor_discard", kTyped + "click Starter\nclick Fix me\nexpect " + kAsks +
                                            "\nclick Discard\nwait 3\nprint Kernel source\n"
                                            "expect Undo replace brings it back\n"
                                            "key ctrl+z\nwait 3\nprint Kernel source\n"
                                            "click Undo replace\nwait 3\nprint Kernel source\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    // After Discard the starter, after Ctrl+Z the typed text, after Undo replace (a redo) the starter.
    const std::vector<std::string> shown = editor_texts(out);
    ASSERT_EQ(shown.size(), 3u) << out;
    EXPECT_EQ(shown[0].find("// my typed work"), std::string::npos) << shown[0];
    EXPECT_NE(shown[1].find("// my typed work"), std::string::npos) << shown[1];
    EXPECT_EQ(shown[2].find("// my typed work"), std::string::npos) << shown[2];
    // The typed text is kept on disk too, listed under Earlier versions.
    const auto versions = earlier_versions(run.data());
    ASSERT_FALSE(versions.empty()) << out;
    EXPECT_NE(file_text(versions.back().file).find("// my typed work"), std::string::npos);
}

TEST(GuiEditor, SaveInTheReplaceDialogSavesThenReplaces) {
    KC_SKIP_WITHOUT_DISPLAY();
    const EditorRun run =
        run_editor("kc_editor_save", kTyped + "click Starter\nclick Fix me\nexpect " + kAsks +
                                         "\nclick Save\nwait 3\nexpect-not " + kAsks + "\nprint Kernel source\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(file_text(run.data() / "kernel.cu").find("// my typed work"), std::string::npos) << run.result.output;
    EXPECT_EQ(last_editor_text(run.result.output).find("// my typed work"), std::string::npos);
}

// Issue 24 #5: started from --kernel, the first autosave keeps the earlier session's autosave.cu
// as an earlier version; the next start lists it in "Earlier versions", and it can be restored.
TEST(GuiEditor, AnEarlierSessionsAutosaveIsKeptAndCanBeRestored) {
    KC_SKIP_WITHOUT_DISPLAY();
    const fs::path dir = fs::path(::testing::TempDir()) / "kc_editor_earlier_src";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.cu") << "// from --kernel\n";
    fs::remove_all(fs::path(::testing::TempDir()) / "kc_editor_earlier");
    fs::create_directories(fs::path(::testing::TempDir()) / "kc_editor_earlier/data/kcanvas");
    std::ofstream(fs::path(::testing::TempDir()) / "kc_editor_earlier/data/kcanvas/autosave.cu")
        << "// an earlier session's unsaved work\n";
    const EditorRun first =
        run_editor("kc_editor_earlier", kTyped + "wait 4\nquit\n", false, "--kernel " + (dir / "mine.cu").string());
    ASSERT_EQ(first.result.exit_code, 0) << first.result.output;
    EXPECT_NE(file_text(first.autosave).find("// my typed work"), std::string::npos);
    const auto versions = earlier_versions(first.data());
    ASSERT_EQ(versions.size(), 1u) << first.result.output;
    EXPECT_TRUE(versions[0].unseen);
    EXPECT_EQ(file_text(versions[0].file), "// an earlier session's unsaved work\n");

    const std::string item = versions[0].when + " (an earlier session's, not seen yet)";
    const EditorRun second = run_editor("kc_editor_earlier",
                                        "op user_kernel\nwait 2\nclick Earlier versions\nwait 2\nclick " + item +
                                            "\nexpect your last session's kernel, kept only in the "
                                            "autosave\nclick Discard\nwait 3\nprint Kernel source\nquit\n",
                                        false);
    ASSERT_EQ(second.result.exit_code, 0) << second.result.output;
    EXPECT_NE(last_editor_text(second.result.output).find("an earlier session's unsaved work"), std::string::npos)
        << second.result.output;
}

// Issue 24 #6: an autosave.cu that is a folder or a pipe is named at start, not restored, and
// never written over: the session autosaves to another name.
TEST(GuiEditor, AnUnreadableAutosaveIsNamedAndNotWrittenOver) {
    KC_SKIP_WITHOUT_DISPLAY();
    for (const bool fifo : {false, true}) {
        SCOPED_TRACE(fifo ? "a pipe" : "a folder");
        const fs::path data = fs::path(::testing::TempDir()) / "kc_editor_unreadable/data/kcanvas";
        fs::remove_all(data.parent_path().parent_path());
        fs::create_directories(data);
        if (fifo)
            ASSERT_EQ(::mkfifo((data / "autosave.cu").c_str(), 0600), 0);
        else
            fs::create_directories(data / "autosave.cu" / "inside");
        const EditorRun run = run_editor("kc_editor_unreadable",
                                         "wait 2\nexpect your last session's kernel was not restored: cannot read\n" +
                                             kTyped + "expect this session autosaves to\nwait 4\nquit\n",
                                         false);
        ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
        EXPECT_TRUE(fifo ? fs::is_fifo(run.autosave) : fs::is_directory(run.autosave / "inside"));
        const auto versions = earlier_versions(run.data());
        ASSERT_EQ(versions.size(), 1u) << run.result.output;
        EXPECT_NE(file_text(versions[0].file).find("// my typed work"), std::string::npos);
    }
}

// The fit zoom the status bar shows ("fit 236%"), from the output of `text`; 0 when none.
int fit_percent(const std::string& out, std::size_t from) {
    std::smatch m;
    const std::string rest = out.substr(from);
    return std::regex_search(rest, m, std::regex("fit ([0-9]+)%")) ? std::stoi(m[1]) : 0;
}

// Issue 25 #4: with your kernel the editor is a window between the panel and the canvas, about
// 40 % of the window's width, and the canvas shrinks beside it; Ctrl+Enter compiles and the
// keyboard stays in the editor.
TEST(GuiEditor, TheEditorSitsBesideTheCanvasAndCtrlEnterKeepsTheKeyboard) {
    KC_SKIP_WITHOUT_DISPLAY();
    const EditorRun run = run_editor("kc_editor_beside", "wait 2\ntext\n" + kTyped +
                                                             "where Kernel source\nkey ctrl+enter\nwait 2\n"
                                                             "type // after ctrl+enter\nwait 2\nprint Kernel source\n"
                                                             "text\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex("where Kernel source: ([0-9]+),([0-9]+) ([0-9]+),([0-9]+)")))
        << out;
    const int x0 = std::stoi(m[1]), x1 = std::stoi(m[3]);
    EXPECT_GT(x0, 350) << "the editor is in the panel";
    EXPECT_GT(x1 - x0, 400) << "the editor is narrow";
    // The canvas (160x100) fits in what is left: a smaller fit than beside the panel alone.
    const int before = fit_percent(out, 0), beside = fit_percent(out, out.find("script: where Kernel source"));
    EXPECT_GT(before, 400) << out;
    EXPECT_LT(beside, 300) << out;
    EXPECT_NE(last_editor_text(out).find("// my typed work// after ctrl+enter"), std::string::npos) << out;
}

// Issue 25 #4: Ctrl+Q's Save never offers a starter in kcanvas's installed data folder: it saves
// a copy into the user's data folder.
TEST(GuiEditor, QuitDialogSavesAnInstalledStarterIntoTheUsersFolder) {
    KC_SKIP_WITHOUT_DISPLAY();
    ASSERT_TRUE(data_dir().found);
    const fs::path shipped = *data_dir().found / "kernels" / "fix_me.cu";
    const std::string before = file_text(shipped);
    const EditorRun probe{fs::path(::testing::TempDir()) / "kc_editor_quit_target", {}, {}};
    const fs::path copy = probe.dir / "data" / "kcanvas" / "fix_me.cu";
    const EditorRun run =
        run_editor("kc_editor_quit_target",
                   kTyped + "key ctrl+q\nexpect Save them to " + copy.string() + " before quitting\n" +
                       "expect-not Save them to " + shipped.string() + "\nclick Save\nwait 30\n",
                   true, "--kernel " + shipped.string());
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(file_text(copy).find("// my typed work"), std::string::npos) << run.result.output;
    EXPECT_EQ(file_text(shipped), before);
}

} // namespace
} // namespace kc

namespace kc {
namespace {

// Checked mode through the window's controls (CPU backend: the sandboxed kernel): the Mode radio
// compiles the kernel again in the mode clicked, and the out-of-range write a kernel makes is named
// under the editor, whose Inspect button pins the inspector in that block.
TEST(GuiEditor, TheModeSwitchRecompilesAndAnOutOfRangeWriteIsNamedAndInspected) {
    KC_SKIP_WITHOUT_DISPLAY();
    const fs::path kernel = fs::path(::testing::TempDir()) / "kc_editor_mode_src" / "oob.cu";
    fs::create_directories(kernel.parent_path());
    std::ofstream(kernel) << "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
                             "const Pixel* b, float t) {\n"
                             "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                             "    if (x >= width) return;\n"
                             "    out[y * width + x] = make_pixel(x, y, 0);\n"
                             "}\n";
    const EditorRun run = run_editor("kc_editor_mode",
                                     "wait 10\nexpect (checked mode)\n"
                                     "expect wrote out[16000]: past the end (160x100 = 16000 pixels)\n"
                                     "click Inspect block (0,12)\nwait 5\nexpect pixel (0, 96), index 15360\n"
                                     "click raw\nwait 10\nexpect (raw mode)\nexpect-not past the end\n"
                                     "click checked\nwait 10\nexpect (checked mode)\nquit\n",
                                     true, "--kernel " + kernel.string() + " --block 32x8 --grid 5x13");
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
}

} // namespace
} // namespace kc
