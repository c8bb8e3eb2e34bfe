// Keys and quitting in the real window, driven by the script's input verbs (key, click, type),
// which reach kcanvas through GLFW's key callback as a person's keys do: Esc closes what is open
// and never quits, Ctrl+Q asks about unsaved kernel edits (Save, Discard, Cancel), F12 saves the
// canvas, and the editor's text comes back after a restart.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/core/kernel_files.h"
#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

namespace fs = std::filesystem;
using test::has_line;

struct KeysRun {
    fs::path dir;       // the working directory (F12's pictures land here), the script
    fs::path data_home; // XDG_DATA_HOME: the autosave and the fallback kernel.cu
    test::ProcessResult result;
};

// Runs the window on `script` with `dir` as its working directory and dir/data as XDG_DATA_HOME.
// `fresh`: start from an empty dir (false: keep the last run's data, a restart).
// `env`: more variables for kcanvas ("NAME='value' ").
KeysRun run_keys(const std::string& name, const std::string& script, bool fresh = true, const std::string& env = "") {
    KeysRun run{fs::path(::testing::TempDir()) / name, {}, {}};
    run.data_home = run.dir / "data";
    if (fresh) fs::remove_all(run.dir);
    fs::create_directories(run.data_home);
    std::ofstream(run.dir / "script.txt") << script;
    run.result = test::run_shell("cd '" + run.dir.string() + "' && " + test::test_env(run.data_home.string()) + env +
                                 KCANVAS_BIN + " --backend cpu --size 160x100 --script script.txt");
    return run;
}

std::string file_text(const fs::path& path) {
    std::string text;
    if (auto e = read_text_file(path.string(), text)) ADD_FAILURE() << *e;
    return text;
}

// The kernel editor with an edit typed into it (so it differs from what was loaded).
const std::string kEditedKernel = "op user_kernel\nwait 2\nclick Kernel source\ntype // my edit\nwait 2\n";
const std::string kDialogText = "changes that are not saved";

TEST(GuiKeys, EscapeClosesTheComboAndDoesNotQuit) {
    KC_SKIP_WITHOUT_DISPLAY();
    const KeysRun run = run_keys("kc_keys_escape", "wait 2\nclick Backend\nwait 1\nkey escape\nwait 2\nwidgets\n"
                                                   "key escape\nwait 2\nclick Operation\nclick Checkerboard\nwait 2\n"
                                                   "print Operation\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    const std::size_t listed = out.find("script: widgets");
    ASSERT_NE(listed, std::string::npos) << out;
    // The list's items are gone after Esc; the second Esc, with nothing open, did not quit.
    EXPECT_EQ(out.substr(0, listed).find("widget cuda-interop:"), std::string::npos) << "the list stayed open:\n"
                                                                                     << out;
    EXPECT_TRUE(has_line(out, "widget Operation: Checkerboard")) << out;
}

TEST(GuiKeys, CtrlQWithUnsavedEditsAsksAndCancelOrEscapeStays) {
    KC_SKIP_WITHOUT_DISPLAY();
    // Ctrl+Q while the editor has the keyboard: it types nothing, so it still quits (asking first).
    const KeysRun run = run_keys("kc_keys_cancel", kEditedKernel + "key ctrl+q\nexpect " + kDialogText +
                                                       "\nclick Cancel\nwait 3\nexpect-not " + kDialogText +
                                                       "\nprint Compile\n"
                                                       "key ctrl+q\nexpect " +
                                                       kDialogText + "\nkey escape\nwait 3\nexpect-not " + kDialogText +
                                                       "\nprint Save .cu\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("widget Compile:"), std::string::npos) << run.result.output;
    EXPECT_NE(run.result.output.find("widget Save .cu:"), std::string::npos) << run.result.output;
}

TEST(GuiKeys, DiscardQuitsWithoutSaving) {
    KC_SKIP_WITHOUT_DISPLAY();
    const KeysRun run = run_keys("kc_keys_discard", kEditedKernel + "key ctrl+q\nexpect " + kDialogText +
                                                        "\nclick Discard\nwait 30\nprint Compile\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(run.result.output.find("widget Compile:"), std::string::npos) << "still running:\n" << run.result.output;
    EXPECT_FALSE(fs::exists(run.data_home / "kcanvas" / "kernel.cu"));
}

TEST(GuiKeys, SaveWritesTheKernelAndQuits) {
    KC_SKIP_WITHOUT_DISPLAY();
    // No file named in the panel: Save goes to the data dir's kernel.cu.
    const KeysRun run = run_keys("kc_keys_save", kEditedKernel + "key ctrl+q\nexpect " + kDialogText +
                                                     "\nclick Save\nwait 30\nprint Compile\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(run.result.output.find("widget Compile:"), std::string::npos) << "still running:\n" << run.result.output;
    const std::string saved = file_text(run.data_home / "kcanvas" / "kernel.cu");
    EXPECT_NE(saved.find("// my edit"), std::string::npos) << saved;
    EXPECT_NE(saved.find("__global__ void paint"), std::string::npos) << saved;
}

TEST(GuiKeys, CtrlQWithoutEditsQuitsAtOnce) {
    KC_SKIP_WITHOUT_DISPLAY();
    const KeysRun run = run_keys("kc_keys_quit", "op user_kernel\nwait 2\nkey ctrl+q\nwait 30\nprint Compile\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(run.result.output.find("widget Compile:"), std::string::npos) << "still running:\n" << run.result.output;
}

TEST(GuiKeys, F12SavesTheCanvasEvenWhileTypingInAField) {
    KC_SKIP_WITHOUT_DISPLAY();
    const KeysRun run = run_keys("kc_keys_f12", "wait 2\nclick Image A\ntype abc\nkey f12\nwait 3\nstatus\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::vector<fs::path> pictures;
    for (const auto& e : fs::directory_iterator(run.dir))
        if (e.path().filename().string().starts_with("kcanvas-gradient-")) pictures.push_back(e.path());
    ASSERT_EQ(pictures.size(), 1u) << run.result.output;
    // The status bar keeps the saved file's full path.
    EXPECT_NE(run.result.output.find("message: saved " + fs::absolute(pictures[0]).string()), std::string::npos)
        << run.result.output;
    const auto png = test::load_png(pictures[0].string());
    EXPECT_EQ(png.width, 160);
    EXPECT_EQ(png.height, 100);
}

TEST(GuiKeys, F12SavesIntoThePicturesFolderWhenThereIsOne) {
    KC_SKIP_WITHOUT_DISPLAY();
    const fs::path pictures = fs::path(::testing::TempDir()) / "kc_keys_pictures";
    fs::remove_all(pictures);
    fs::create_directories(pictures);
    // xdg-user-dir answers $XDG_PICTURES_DIR when user-dirs.dirs does not set it.
    const KeysRun run = run_keys("kc_keys_f12_pictures", "wait 2\nkey f12\nwait 3\nstatus\nquit\n", true,
                                 "XDG_PICTURES_DIR='" + pictures.string() + "' ");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::vector<fs::path> saved;
    for (const auto& e : fs::directory_iterator(pictures)) saved.push_back(e.path());
    ASSERT_EQ(saved.size(), 1u) << run.result.output;
    EXPECT_TRUE(saved[0].filename().string().starts_with("kcanvas-gradient-")) << saved[0];
    EXPECT_NE(run.result.output.find("message: saved " + saved[0].string()), std::string::npos) << run.result.output;
    for (const auto& e : fs::directory_iterator(run.dir)) // nothing in the working directory
        EXPECT_FALSE(e.path().filename().string().starts_with("kcanvas-")) << e.path();
}

TEST(GuiKeys, TheEditorsTextComesBackAfterARestart) {
    KC_SKIP_WITHOUT_DISPLAY();
    // Quit through the script (no dialog): the autosave is written at quit.
    const KeysRun first = run_keys("kc_keys_restore", kEditedKernel + "quit\n");
    ASSERT_EQ(first.result.exit_code, 0) << first.result.output;
    const fs::path autosave = first.data_home / "kcanvas" / "autosave.cu";
    const std::string saved = file_text(autosave);
    EXPECT_NE(saved.find("// my edit"), std::string::npos) << saved;

    const KeysRun second = run_keys("kc_keys_restore",
                                    "op user_kernel\nexpect restored your last session's kernel (" + autosave.string() +
                                        ")\nprint Kernel source\nquit\n",
                                    false);
    ASSERT_EQ(second.result.exit_code, 0) << second.result.output;
    EXPECT_NE(second.result.output.find("// my edit"), std::string::npos) << second.result.output; // in the editor
    EXPECT_EQ(file_text(autosave), saved); // nothing edited since: the file is as it was
}

// The editor's items: the whole kernel is the user's, fix_me's answer waits behind a button, and
// Compile works on the CPU backend too (the system's C++ compiler, the kernel in the sandbox).
TEST(GuiEditor, FixMeHidesItsAnswerAndCompileWorksOnTheCpuBackend) {
    KC_SKIP_WITHOUT_DISPLAY();
    const KeysRun run = run_keys("kc_editor_items", "op user_kernel\nwait 2\nclick Starter\nclick Fix me\nwait 2\n"
                                                    "expect Write the whole kernel\nexpect-not Answer:\n"
                                                    "click Show answer\nexpect Answer: blockIdx.x * blockDim.x\n"
                                                    "click Hide answer\nwait 2\nexpect-not Answer:\n"
                                                    "expect runs in a sandbox\nprint Compile\nclick Compile\n"
                                                    "wait 2\nstatus\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_FALSE(has_line(run.result.output, "widget Compile:  (disabled)")) << run.result.output;
    EXPECT_EQ(run.result.output.find("compile: failed"), std::string::npos) << run.result.output;
    EXPECT_NE(run.result.output.find("compile: ok"), std::string::npos) << run.result.output;
}

} // namespace
} // namespace kc
