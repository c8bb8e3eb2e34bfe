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

} // namespace
} // namespace kc
