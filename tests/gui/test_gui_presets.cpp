// Presets made in the window, the way a person makes them: each op picked in the Operation list,
// one of its controls moved, a file name typed, Save preset clicked. The headless render of each
// preset must equal the window's canvas pixel for pixel, and the command --print-command makes
// of it must paint that picture again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "tests/support/gui_script.h"

namespace kc {
namespace {

using test::load_png;
using test::run;
using test::run_script;

// The script lines that change `op` from its defaults through its panel controls.
std::string change_a_control(const OpInfo& op) {
    for (const ParamSpec& s : kParams)
        if (s.widget == ParamWidget::Control && uses_param(op, s.name))
            return s.kind == ParamKind::Bool ? "click " + std::string(s.label) + "\n"
                                             : "drag " + std::string(s.label) + " -25 0\n";
    if (op.variants > 1) return "click " + std::string(op.variant_names[1]) + "\n";
    // The launch, then: a hand-set grid too small for the canvas first (its hatching is in the
    // picture), a narrower block after.
    if (op.index == 0) return "click Auto grid\nclick Grid x\nkey ctrl+a\ntype 2\nkey enter\n";
    return "click Block x\nkey ctrl+a\ntype 20\nkey enter\n";
}

TEST(GuiPresets, EveryOpsPresetPaintsTheWindowsCanvasHeadless) {
    KC_SKIP_WITHOUT_DISPLAY();
    std::string script = "size 96x64\nwait 2\nclick Preset and command line\n";
    std::vector<std::string> ops;
    for (const OpInfo& op : op_registry()) {
        if (op.user_code) continue; // the cpu backend cannot run it (test_gpu_user_kernel covers it)
        const std::string name(op.name);
        ops.push_back(name);
        script += "click Operation\nclick " + std::string(op.title) + "\nwait 2\n" + change_a_control(op) +
                  "wait 2\nclick Preset file\nkey ctrl+a\ntype {dir}/" + name + ".json\nclick Save preset\nwait 3\n" +
                  "save {dir}/" + name + "-window.png\n";
    }
    script += "quit\n";
    const auto r = run_script("kc_gui_presets", script);
    ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
    for (const std::string& name : ops) {
        SCOPED_TRACE(name);
        const std::string preset = r.dir + "/" + name + ".json", headless = r.dir + "/" + name + "-headless.png";
        const auto h = run("--headless --backend cpu --frames 1 --preset " + preset + " --out " + headless);
        ASSERT_EQ(h.exit_code, 0) << h.output;
        EXPECT_EQ(h.output.find("warning"), std::string::npos) << h.output;
        const auto window = load_png(r.dir + "/" + name + "-window.png"), painted = load_png(headless);
        ASSERT_EQ(window.width, 96);
        ASSERT_EQ(window.height, 64);
        EXPECT_EQ(painted.width, window.width);
        EXPECT_EQ(painted.height, window.height);
        EXPECT_TRUE(painted.pixels == window.pixels) << "the preset's picture differs from the window's";

        // The command line the preset prints paints it too.
        const auto command = run("--preset " + preset + " --print-command");
        ASSERT_EQ(command.exit_code, 0) << command.output;
        ASSERT_TRUE(command.output.starts_with("kcanvas ")) << command.output;
        std::string flags = command.output.substr(8);
        flags.erase(flags.find_last_not_of('\n') + 1);
        const std::string again = r.dir + "/" + name + "-command.png";
        const auto c = run(flags + " --headless --backend cpu --frames 1 --out " + again);
        ASSERT_EQ(c.exit_code, 0) << flags << "\n" << c.output;
        EXPECT_TRUE(load_png(again).pixels == window.pixels) << "the printed command paints another picture: " << flags;
    }
}

// Copy command line shows the command (and puts it on the clipboard); run headless, it paints the
// window's canvas. Load preset then brings a saved picture back into the window.
TEST(GuiPresets, CopyCommandLinePaintsTheCanvasAndLoadPresetRestoresIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto r = run_script("kc_gui_command",
                              "size 90x70\nwait 2\nclick Operation\nclick Julia set\nwait 2\ndrag Julia k im 30 0\n"
                              "drag Iterations -30 0\nwait 2\nclick Preset and command line\nclick Copy command line\n"
                              "wait 2\nprint Command line\nsave {dir}/window.png\n"
                              "click Preset file\nkey ctrl+a\ntype {dir}/julia.json\nclick Save preset\nwait 2\n"
                              "click Operation\nclick Gradient\nwait 2\nclick Load preset\nwait 3\n"
                              "save {dir}/loaded.png\nclick Preset file\nkey ctrl+a\ntype {dir}/missing.json\n"
                              "click Load preset\nwait 2\nsave {dir}/after-missing.png\nquit\n");
    ASSERT_EQ(r.result.exit_code, 0) << r.result.output;
    const std::string command = test::printed_value(r.result.output, "Command line");
    ASSERT_TRUE(command.starts_with("kcanvas --op julia --size 90x70 ")) << r.result.output;
    EXPECT_EQ(command.find("--julia-im 0.156 "), std::string::npos) << "the drag did not reach the command";
    const std::string again = r.dir + "/command.png";
    const auto c = run(command.substr(8) + " --headless --backend cpu --frames 1 --out " + again);
    ASSERT_EQ(c.exit_code, 0) << command << "\n" << c.output;
    const auto window = load_png(r.dir + "/window.png");
    ASSERT_EQ(window.width, 90);
    EXPECT_TRUE(load_png(again).pixels == window.pixels) << command;
    EXPECT_TRUE(load_png(r.dir + "/loaded.png").pixels == window.pixels) << "Load preset did not restore the julia";
    EXPECT_TRUE(load_png(r.dir + "/after-missing.png").pixels == window.pixels)
        << "a preset that cannot be read must leave the picture";
}

// The window's zoom travels in the preset: zoomed in with the status bar's "+", saved from the panel,
// and shown again by a window started with --preset.
TEST(GuiPresets, TheWindowsZoomComesBackWithThePreset) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto saved =
        run_script("kc_gui_preset_zoom", "wait 2\nclick +\nclick +\nwait 2\nclick Preset and command line\n"
                                         "click Preset file\nkey ctrl+a\ntype {dir}/zoomed.json\n"
                                         "click Save preset\nwait 2\ntext\nquit\n");
    ASSERT_EQ(saved.result.exit_code, 0) << saved.result.output;
    std::smatch zoom;
    const std::regex percent(R"(\n(\d+%)\n)"); // the status bar's zoom, not fitted
    ASSERT_TRUE(std::regex_search(saved.result.output, zoom, percent)) << saved.result.output;
    const auto shown = run_script("kc_gui_preset_zoom_shown", "wait 3\nexpect " + zoom[1].str() + "\nquit\n",
                                  "--backend cpu --preset " + saved.dir + "/zoomed.json");
    EXPECT_EQ(shown.result.exit_code, 0) << shown.result.output;
}

// Issue 24: Load preset of a value nested 80,000 deep crashed the window while it built the error
// message. Now it is refused before it is parsed, the picture stays, and the window goes on.
TEST(GuiPresets, LoadPresetOfAValueNested80000DeepIsRefused) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string dir = ::testing::TempDir() + "/kc_gui_presets_deep_file"; // run_script empties its own
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/deep.json") << R"({"kcanvas_preset": 1, "canvas": {"width": )" << std::string(80000, '[')
                                      << std::string(80000, ']') << "}}";
    const auto r = run_script("kc_gui_presets_deep", "wait 2\nclick Preset and command line\nclick Preset file\n"
                                                     "key ctrl+a\ntype " +
                                                         dir +
                                                         "/deep.json\nclick Load preset\n"
                                                         "wheel -10 Load preset\n" // the message under it, in view
                                                         "expect nested deeper than the 16 levels a preset may hold\n"
                                                         "status\nquit\n");
    EXPECT_EQ(r.result.exit_code, 0) << r.result.output.substr(0, 3000);
    EXPECT_NE(r.result.output.find("status: ok"), std::string::npos) << r.result.output.substr(0, 3000);
}

} // namespace
} // namespace kc
