// The panel says what really runs, driven the way a person drives it (the script's input verbs
// send real mouse and key events): typed launch fields apply on Enter or focus loss only, grid 0
// is refused, Enter in an image field loads it and each image's error shows under that image,
// the histogram's hover shows the real count, custom ops show their own launch, and a machine
// without a GPU is told so once.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <string>

#include "app/core/gpu_list.h"
#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

using test::has_line;
using test::printed_value;
using test::run_script;

constexpr const char* kSize = "320x200";

test::LoadedImage headless_picture(const std::string& dir, const std::string& name, const std::string& flags) {
    return test::headless_picture(dir, name, kSize, flags);
}

// What the script's `text` verb printed last: the panel's visible text, one message a line.
std::string shown_text(const std::string& out) {
    const std::size_t from = out.rfind("text:\n"), to = out.rfind("script: text");
    if (from == std::string::npos || to == std::string::npos || to < from) return {};
    return out.substr(from, to - from);
}

// Everything the window printed after the line `from` (a script echo), up to the next echo of `until`.
std::string between(const std::string& out, const std::string& from, const std::string& until) {
    const std::size_t a = out.find(from);
    if (a == std::string::npos) return {};
    const std::size_t b = out.find(until, a + from.size());
    return out.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// "1616" typed into Block x passes through "16": nothing applies until Enter, which is then refused
// with the limit; the picture painted before stays.
TEST(GuiPanels, TypedBlockAppliesOnEnterOnlyAndIsRefusedWithItsLimit) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_block_field", std::string("size ") + kSize +
                                             "\nwait 2\n"
                                             "click Block x\nkey ctrl+a\ntype 1616\nwait 3\nstatus\n"
                                             "save {dir}/typing.png\n"
                                             "key enter\nwait 3\nstatus\nexpect 1616 is over the limit of 1024\n"
                                             "save {dir}/refused.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    const std::string typing = between(out, "script: type 1616", "script: key enter");
    EXPECT_TRUE(has_line(typing, "status: ok")) << typing;
    EXPECT_TRUE(has_line(typing, "launch: block 32x8x1 grid 10x25x1 mapping 2d (the panel's)")) << typing;
    EXPECT_NE(out.find("status: refused: block x = 1616 is over the limit of 1024"), std::string::npos) << out;
    const auto gradient = headless_picture(run.dir, "gradient", "--op gradient");
    EXPECT_TRUE(test::load_png(run.dir + "/typing.png").pixels == gradient.pixels) << "a half-typed block ran";
    EXPECT_TRUE(test::load_png(run.dir + "/refused.png").pixels == gradient.pixels) << "the refusal painted";
}

// A hand-set grid of 0, committed by Tab (the field loses focus): a refusal naming the zero, not
// a count of uncovered pixels over the old picture.
TEST(GuiPanels, GridZeroIsRefusedNotCountedAsUncovered) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_grid_zero", std::string("size ") + kSize +
                                                        "\nwait 2\nclick Auto grid\nwait 2\n"
                                                        "click Grid x\nkey ctrl+a\ntype 0\nkey tab\nwait 3\nstatus\n"
                                                        "expect grid 0x25x1 has a zero\nexpect-not pixels uncovered\n"
                                                        "save {dir}/refused.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("status: refused: grid 0x25x1 has a zero or negative dimension"),
              std::string::npos)
        << run.result.output;
    const auto gradient = headless_picture(run.dir, "gradient", "--op gradient");
    EXPECT_TRUE(test::load_png(run.dir + "/refused.png").pixels == gradient.pixels);
}

// The canvas Width field resizes on Enter, not while typing.
TEST(GuiPanels, TypedCanvasWidthAppliesOnEnter) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_width_field", std::string("size ") + kSize +
                                             "\nwait 2\nclick Canvas\nwait 2\n"
                                             "click Width\nkey ctrl+a\ntype 64\nwait 3\nsave {dir}/typing.png\n"
                                             "key enter\nwait 3\nstatus\nsave {dir}/applied.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(test::load_png(run.dir + "/typing.png").width, 320) << run.result.output;
    EXPECT_EQ(test::load_png(run.dir + "/applied.png").width, 64) << run.result.output;
    EXPECT_NE(run.result.output.find("message: canvas resized to 64x200"), std::string::npos) << run.result.output;
}

// Enter in the Image A field loads the file typed there; a bad path's error shows under A (before
// B's row), and Clear A brings the gradient back.
TEST(GuiPanels, EnterInTheImageFieldLoadsItAndItsErrorShowsUnderIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string logo = std::string(KC_ASSETS) + "/logo.png";
    const auto run = run_script(
        "kc_gui_image_field", std::string("size ") + kSize + "\nop invert\nwait 2\n" + "click Image A\ntype " + logo +
                                  "\nkey enter\nwait 3\nstatus\nsave {dir}/loaded.png\n"
                                  "click Image A\nkey ctrl+a\ntype {dir}/missing.png\nkey enter\nwait 3\nstatus\ntext\n"
                                  "save {dir}/kept.png\nclick Clear A\nwait 3\nsave {dir}/cleared.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_NE(out.find("message: loaded " + logo), std::string::npos) << out;
    const auto inverted = headless_picture(run.dir, "inverted", "--op invert --image " + logo);
    EXPECT_TRUE(test::load_png(run.dir + "/loaded.png").pixels == inverted.pixels);
    EXPECT_TRUE(test::load_png(run.dir + "/kept.png").pixels == inverted.pixels) << "the bad file replaced A";
    const std::string error = "cannot read '" + run.dir + "/missing.png': no such file";
    EXPECT_NE(out.find("image error: " + error + " (image A)"), std::string::npos) << out;
    // The panel's text in order: A's row, its error, then B's row.
    const std::string shown = shown_text(out);
    const std::size_t at_error = shown.find(error), at_b = shown.find("(checkerboard)");
    ASSERT_NE(at_error, std::string::npos) << shown;
    ASSERT_NE(at_b, std::string::npos) << shown;
    EXPECT_LT(at_error, at_b) << "the error is not under image A\n" << shown;
    const auto plain = headless_picture(run.dir, "plain", "--op invert");
    EXPECT_TRUE(test::load_png(run.dir + "/cleared.png").pixels == plain.pixels);
}

// Hovering the luminance histogram shows a bin and its count, the count the command line's
// --json histogram holds for that bin (not its square root, which the bar's height is).
TEST(GuiPanels, HistogramHoverShowsTheBinsRealCount) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_histogram_hover", std::string("size ") + kSize +
                                                              "\nwait 2\nclick Operation\nclick Histogram\nwait 3\n"
                                                              "hover luminance\nwait 3\ntext\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::smatch m;
    const std::string shown = shown_text(run.result.output);
    ASSERT_TRUE(std::regex_search(shown, m, std::regex("luminance (\\d+): (\\d+) pixels"))) << shown;
    const int bin = std::stoi(m[1]);
    const long long count = std::stoll(m[2]);
    // Picking the histogram with no image loaded loads the shipped rose.jpg.
    const auto r = test::run(std::string("--headless --backend cpu --frames 1 --op histogram --json --image ") +
                             KC_ASSETS + "/rose.jpg --size " + kSize);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output.substr(r.output.find('{')));
    EXPECT_EQ(count, json["histogram"]["luminance"][bin].get<long long>()) << "bin " << bin;
}

// Box blur and the histogram launch their own kernels: the Launch section shows their block and
// grid (16x16 tiles; 256 threads striding over the pixels), not the panel's 32x8.
TEST(GuiPanels, CustomOpsShowTheirOwnLaunch) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_own_launch", std::string("size ") + kSize +
                                            "\nwait 2\nclick Operation\nclick Box blur\nwait 3\n"
                                            "click Images\nwait 2\n" // folded: the Indexing section fits below
                                            "print Block\nprint Grid\nexpect Block 16 x 16 = 256 threads\n"
                                            "expect x = blockIdx.x*16 + threadIdx.x\nstatus\n"
                                            "click Operation\nclick Histogram\nwait 3\n"
                                            "print Block\nprint Grid\nhover Tint pixels written more than once\n"
                                            "wait 2\nexpect i += 64000\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    const std::string blur = between(out, "script: click Box blur", "script: click Histogram");
    EXPECT_EQ(printed_value(blur, "Block"), "16x16x1") << blur;
    EXPECT_EQ(printed_value(blur, "Grid"), "20x13x1") << blur;
    EXPECT_TRUE(has_line(blur, "launch: block 16x16x1 grid 20x13x1 mapping 2d (the op's own)")) << blur;
    const std::string histogram = out.substr(out.find("script: click Histogram"));
    EXPECT_EQ(printed_value(histogram, "Block"), "256x1x1") << histogram;
    EXPECT_EQ(printed_value(histogram, "Grid"), "250x1x1") << histogram;
}

// Each view picked in the View combo explains its colours in the panel's legend (the Indexing
// section, wheeled into view by hovering the checkbox under it), with the hatch under it.
TEST(GuiPanels, EachViewPickedShowsItsOwnLegend) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::pair<const char*, const char*> views[] = {{"block", "One colour per block."},
                                                         {"thread", "Red = threadIdx.x / (blockDim.x-1)"},
                                                         {"warp", "warp = (threadIdx.y*blockDim.x"},
                                                         {"lane", "lane = flattened threadIdx % 32"},
                                                         {"linear", "Brightness = the thread's linear index"},
                                                         {"sm", "One colour per SM that ran the block"},
                                                         {"start", "Colour = when the pixel's block started"},
                                                         {"pixels", "The operation's output."}};
    std::string script = std::string("size ") + kSize + "\nwait 2\n";
    for (const auto& [view, legend] : views)
        script += fmt::format("click View\nclick {}\nwait 2\nhover Inspect on hover\nexpect {}\nexpect hatched: no "
                              "thread writes this pixel\n"
                              "print View\n",
                              view, legend);
    const auto run = run_script("kc_gui_legends", script + "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    for (const auto& [view, legend] : views)
        EXPECT_TRUE(has_line(run.result.output, std::string("widget View: ") + view)) << view << "\n"
                                                                                      << run.result.output;
}

// Without a usable NVIDIA GPU the panel says why once, in plain words, and what still works; it
// never sends the user to update a driver that is not there.
TEST(GuiPanels, NoGpuIsSaidOnceInPlainWords) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_no_gpu",
                   "size 160x100\nwait 3\ntext\nclick Device\nwait 2\nwheel -40 Device\nwait 3\ntext\nquit\n", "");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    const std::string top = out.substr(out.find("text:\n"), out.find("script: text") - out.find("text:\n"));
    const std::string device = shown_text(out); // after the Device section opened (and scrolled into view)
    const std::size_t works = top.find("What works: the cpu backend");
    if (works == std::string::npos) GTEST_SKIP() << "a CUDA backend works here";
    EXPECT_EQ(out.find("insufficient"), std::string::npos) << out;
    // The line before "What works" says why (one text item per message); nothing else repeats it.
    const std::size_t line = top.rfind('\n', works - 2) + 1;
    const std::string why = top.substr(line + 1, works - 1 - line - 1); // without its capital and newline
    ASSERT_GT(why.size(), 10u) << top;
    EXPECT_EQ(top.find(why, line + why.size()), std::string::npos) << "the reason is said twice\n" << top;
    EXPECT_NE(device.find("No CUDA device (see the top of the panel)"), std::string::npos) << device;
    if (device.find("What works") == std::string::npos) { // scrolled past the top: the Device section alone
        EXPECT_EQ(device.find(why), std::string::npos) << "the Device section repeats the reason\n" << device;
    }
}

// The Device section lists the GPUs (name, memory, which runs OpenGL, which CUDA paints with); on
// a machine without a CUDA GPU it says so and names what OpenGL runs on instead.
TEST(GuiPanels, DeviceSectionListsTheGpus) {
    KC_SKIP_WITHOUT_DISPLAY();
    const CudaGpus& here = cuda_gpu_list();
    std::string expects;
    if (here.gpus.empty()) expects = "expect GPUs: no CUDA GPU\nexpect OpenGL runs on \nexpect-not GPU 0:\n";
    for (const GpuDescription& g : here.gpus)
        expects += "expect GPU " + std::to_string(g.index) + ": " + g.name + ", " + memory_text(g.memory) + "\n";
    const auto run = run_script(
        "kc_gui_gpus",
        "size 160x100\nwait 3\nclick Device\nwait 2\nwheel -40 Device\nwait 3\n" + expects + "text\nquit\n", "");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string device = shown_text(run.result.output);
    if (here.gpus.empty()) {
        // The line says what renders (Mesa's llvmpipe under Xvfb), not the reason CUDA is missing.
        const std::size_t at = device.find("OpenGL runs on ");
        ASSERT_NE(at, std::string::npos) << device;
        EXPECT_NE(device.find(", no CUDA GPU", at), std::string::npos) << device;
        EXPECT_EQ(device.find(here.why_none), std::string::npos) << device;
    }
}

} // namespace
} // namespace kc
