// Clicks faster than a frame (issue 25): on the CPU backend a frame can take longer than a hand's
// click, so a press and its release arrive inside one frame, and the hand has often moved on
// before the next. Each control must still answer that click as a slower one, through the same
// GLFW callbacks a person's mouse goes through (`quick-click`, app/script/script_input.h).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/gui_script.h"

namespace kc {
namespace {

using test::printed_value;
using test::run_script;

TEST(GuiQuickClicks, APressAndReleaseInsideOneFrameStillClick) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_quick_clicks", "size 160x100\nwait 2\n"
                                                       "quick-click Auto grid\nwait 2\nprint Auto grid\n"
                                                       "quick-click Mapping\nwait 2\nquick-click linear\nwait 2\n"
                                                       "print Mapping\n"
                                                       "quick-click Default\nwait 2\nprint Mapping\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_EQ(printed_value(out, "Auto grid"), "off") << "the checkbox missed the click\n" << out;
    const std::size_t linear = out.find("widget Mapping: linear");
    ASSERT_NE(linear, std::string::npos) << "the combo or its list item missed the click\n" << out;
    EXPECT_NE(out.find("widget Mapping: 2d", linear), std::string::npos) << "the Default button missed it\n" << out;
}

} // namespace
} // namespace kc
