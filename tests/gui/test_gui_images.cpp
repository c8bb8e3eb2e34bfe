// The real window under a virtual display (xvfb-run): --image sets the canvas size, a bad file in
// the panel keeps the current image and says why, and the canvas can be saved. Skips without
// xvfb-run or a working GL window.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "render/gl_context.h"
#include "render/io/image_io.h"
#include "tests/support/gui_script.h"

namespace kc {
namespace {

TEST(GuiImages, LoadBadFileKeepsImageAndSaves) {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
    const auto dir = std::filesystem::temp_directory_path() / "kc_gui_images";
    std::filesystem::create_directories(dir);
    const std::string script = (dir / "s.txt").string(), log = (dir / "log.txt").string(),
                      canvas = (dir / "canvas.png").string();
    std::ofstream(script) << "op invert\nwait 2\nimage " << (dir / "missing.png").string() << "\nwait 2\nstatus\nsave "
                          << canvas << "\nquit\n";
    const std::string cmd = "xvfb-run -a -s '-screen 0 1280x900x24' " + std::string(KCANVAS_BIN) +
                            " --backend cpu --script " + script + " --image " + KC_ASSETS + "/logo.png >" + log +
                            " 2>&1";
    const int status = std::system(cmd.c_str());
    std::stringstream out;
    out << std::ifstream(log).rdbuf();
    // Only exit 1 with the no-display message as the last line (after GLFW's own words) skips: any
    // other exit 1 (a GL context that fails, a script error, a sanitizer's report) fails the test.
    const std::string no_display = std::string("kcanvas: ") + kNoDisplayMessage + "\n";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && out.str().ends_with(no_display))
        GTEST_SKIP() << "no display here: " << out.str();
    ASSERT_TRUE(WIFEXITED(status)) << out.str();
    ASSERT_EQ(WEXITSTATUS(status), 0) << out.str();
    EXPECT_NE(out.str().find("image error: cannot read"), std::string::npos) << out.str();
    Image saved, logo;
    ASSERT_FALSE(load_image(canvas, saved));
    ASSERT_FALSE(load_image(std::string(KC_ASSETS) + "/logo.png", logo));
    ASSERT_EQ(saved.width, logo.width); // the canvas took image A's size
    ASSERT_EQ(saved.height, logo.height);
    const Pixel a = logo.pixels[0], s = saved.pixels[0]; // still the inverted logo
    EXPECT_EQ(s.r, 255 - a.r);
    EXPECT_EQ(s.g, 255 - a.g);
    std::filesystem::remove_all(dir);
}

// ---- getting a picture in (issue 25, item 5): samples, bare names, Browse ---------------------

const std::string kRose = std::string(KC_ASSETS) + "/rose.jpg";

// Runs the window on `script` (its "{dir}" the run's folder) with PATH set to `path` (zenity or not).
test::ScriptRun run_with_path(const std::string& name, std::string script, const std::string& path,
                              const std::string& args = "--backend cpu --size 160x100") {
    test::ScriptRun out{::testing::TempDir() + "/" + name, {}};
    std::filesystem::remove_all(out.dir);
    std::filesystem::create_directories(out.dir);
    for (std::size_t at; (at = script.find("{dir}")) != std::string::npos;) script.replace(at, 5, out.dir);
    std::ofstream(out.dir + "/script.txt") << script;
    std::string p = path;
    for (std::size_t at; (at = p.find("{dir}")) != std::string::npos;) p.replace(at, 5, out.dir);
    out.result =
        test::run_shell("GO='" + out.dir + "/go.png' PATH='" + p + "' " + test::test_env(test::test_data_home()) +
                        KCANVAS_BIN + " " + args + " --script " + out.dir + "/script.txt");
    return out;
}

// What `--headless` paints for this op on rose.jpg at 160x100: the window's picture, independently.
std::vector<Pixel> rose_picture(const std::string& dir, const std::string& op) {
    return test::headless_picture(dir, op, "160x100", "--op " + op + " --image " + kRose).pixels;
}

// "Sample A" lists the shipped pictures; clicking rose.jpg loads it and the field shows where it lives.
TEST(GuiImages, SampleMenuLoadsAShippedPicture) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = test::run_script("kc_gui_sample_menu",
                                      "wait 2\nclick Sample A\nwait 2\nwidgets\nclick rose.jpg\nwait 3\n"
                                      "print Image A\nsave {dir}/canvas.png\nquit\n",
                                      "--backend cpu --size 160x100 --op invert");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("logo.png"), std::string::npos) << "the menu lists the samples\n"
                                                                     << run.result.output;
    EXPECT_TRUE(test::printed_value(run.result.output, "Image A").ends_with("/images/rose.jpg")) << run.result.output;
    EXPECT_TRUE(test::load_png(run.dir + "/canvas.png").pixels == rose_picture(run.dir, "invert"));
}

// A bare name typed in the path field is found among the samples, as `--image rose.jpg` is.
TEST(GuiImages, BareNameInThePathFieldLoadsTheSample) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = test::run_script(
        "kc_gui_bare_name",
        "wait 2\nclick Image A\nkey ctrl+a\ntype rose.jpg\nkey enter\nwait 3\n"
        "status\nexpect a bare name loads a sample (logo.png, rose.jpg)\nsave {dir}/canvas.png\nquit\n",
        "--backend cpu --size 160x100 --op invert");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(run.result.output.find("no such file"), std::string::npos) << run.result.output;
    EXPECT_TRUE(test::load_png(run.dir + "/canvas.png").pixels == rose_picture(run.dir, "invert"));
}

// Choosing an image op with no image loaded starts it on the photograph, and says so.
TEST(GuiImages, ImageOpStartsOnThePhotograph) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = test::run_script("kc_gui_sobel_photo",
                                      "wait 2\nclick Operation\nclick Sobel edges\nwait 3\n"
                                      "expect works on a picture and none was loaded\nsave {dir}/canvas.png\nquit\n",
                                      "--backend cpu --size 160x100");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_TRUE(test::load_png(run.dir + "/canvas.png").pixels == rose_picture(run.dir, "sobel"));
}

// With zenity on PATH, Browse A runs it without stopping the frames (the panel says it is open
// while it waits), and loads what it printed.
TEST(GuiImages, BrowseRunsTheDesktopChooserWithoutBlocking) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string dir = ::testing::TempDir() + "/kc_gui_zenity_bin";
    std::filesystem::create_directories(dir);
    // It answers only once the window has saved go.png: the window must draw frames while it waits.
    std::ofstream(dir + "/zenity") << "#!/bin/sh\nprintf '%s\\n' \"$@\" > " << dir << "/args\n"
                                   << "while [ ! -e \"$GO\" ]; do sleep 0.01; done\necho '" << KC_ASSETS
                                   << "/logo.png'\n";
    std::filesystem::permissions(dir + "/zenity", std::filesystem::perms::owner_all);
    std::string script = "wait 2\nclick Browse A\nexpect The desktop's file chooser is open.\nsave {dir}/go.png\n";
    for (int i = 0; i < 10; ++i) script += "wait 30\nstatus\n";
    const auto run = run_with_path("kc_gui_zenity", script + "quit\n", dir + ":" + std::getenv("PATH"),
                                   "--backend cpu --size 160x100 --op invert");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("/logo.png ("), std::string::npos) << run.result.output;
    std::stringstream args;
    args << std::ifstream(dir + "/args").rdbuf();
    EXPECT_NE(args.str().find("--file-selection"), std::string::npos) << args.str();
}

// Without zenity, Browse A opens the window's own browser: a folder's subfolders and pictures.
TEST(GuiImages, BrowseWithoutZenityListsAFolder) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string pics =
        (std::filesystem::path(::testing::TempDir()) / "kc_gui_browser_pics").lexically_normal().string();
    std::filesystem::remove_all(pics);
    std::filesystem::create_directories(pics + "/inner");
    std::vector<Pixel> px(6 * 4, Pixel{10, 200, 30, 255});
    ASSERT_FALSE(write_image(pics + "/inner/tiny.png", 6, 4, px));
    std::ofstream(pics + "/notes.txt") << "not a picture";
    const auto run =
        run_with_path("kc_gui_browser",
                      "wait 2\nclick Image A\nkey ctrl+a\ntype " + pics +
                          "\nkey enter\nwait 2\nclick Browse A\nwait 2\nexpect-not notes.txt\nclick inner/\n"
                          "wait 2\nclick tiny.png\nwait 3\nstatus\nquit\n",
                      "{dir}/empty", "--backend cpu --size 160x100 --op invert");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("loaded " + pics + "/inner/tiny.png (6x4) as image A"), std::string::npos)
        << run.result.output;
}

} // namespace
} // namespace kc
