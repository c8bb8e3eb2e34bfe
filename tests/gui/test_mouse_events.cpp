// MouseEvents on a real GLFW window (so it needs a display), fed through the callbacks installed
// on it as GLFW feeds a hand's events: ImGui gets at most one button change a frame, each at the
// position the pointer had when it happened.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <cstdlib>
#include <memory>

#include "app/window/mouse_events.h"
#include "render/gl_context.h"

namespace kc {
namespace {

class MouseEventsTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
        window = std::make_unique<GlfwWindow>(64, 64, "mouse events test", false);
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the test's folder
        mouse = std::make_unique<MouseEvents>(window->handle());
    }
    void TearDown() override {
        mouse.reset();
        if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
        window.reset();
    }
    // What GLFW calls (GLFW 3.3 has no getter for a callback: set and put back).
    void move(double x, double y) {
        const GLFWcursorposfun f = glfwSetCursorPosCallback(window->handle(), nullptr);
        glfwSetCursorPosCallback(window->handle(), f);
        f(window->handle(), x, y);
    }
    void button(int b, int action) {
        const GLFWmousebuttonfun f = glfwSetMouseButtonCallback(window->handle(), nullptr);
        glfwSetMouseButtonCallback(window->handle(), f);
        f(window->handle(), b, action, 0);
    }
    std::unique_ptr<GlfwWindow> window;
    std::unique_ptr<MouseEvents> mouse;
};

// A click at (10, 20) and a move on to (50, 60), all inside one frame: three frames for ImGui.
TEST_F(MouseEventsTest, APressAndReleaseInOneFrameReachImGuiInTwoAtTheirPosition) {
    ImGuiIO& io = ImGui::GetIO();
    move(10, 20);
    button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS);
    button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE);
    move(50, 60);
    mouse->feed_imgui();
    EXPECT_TRUE(io.MouseDown[0]);
    EXPECT_EQ(io.MousePos.x, 10.0f);
    EXPECT_EQ(io.MousePos.y, 20.0f);
    EXPECT_TRUE(mouse->behind());
    mouse->feed_imgui();
    EXPECT_FALSE(io.MouseDown[0]);
    EXPECT_EQ(io.MousePos.x, 10.0f); // released where it was pressed
    mouse->feed_imgui();
    EXPECT_FALSE(io.MouseDown[0]);
    EXPECT_EQ(io.MousePos.x, 50.0f);
    EXPECT_EQ(io.MousePos.y, 60.0f);
    EXPECT_FALSE(mouse->behind());
    EXPECT_EQ(mouse->events_seen(), 4u);
}

// Moves alone are not held back: the frame shows the last one; other buttons keep their state.
TEST_F(MouseEventsTest, MovesAloneArriveTogetherAndButtonsStayDown) {
    ImGuiIO& io = ImGui::GetIO();
    move(1, 2);
    button(GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS);
    move(3, 4);
    move(5, 6);
    mouse->feed_imgui();
    EXPECT_TRUE(io.MouseDown[1]);
    EXPECT_EQ(io.MousePos.x, 1.0f); // the press, with the pointer where it was then
    mouse->feed_imgui();
    EXPECT_TRUE(io.MouseDown[1]);
    EXPECT_EQ(io.MousePos.x, 5.0f); // both moves
    EXPECT_FALSE(mouse->behind());
}

// Installed before ImGui's GLFW backend, MouseEvents still hears every button: the backend keeps
// the callback it replaces and calls it first (what the window and the script rely on).
TEST_F(MouseEventsTest, ImGuisBackendInstalledAfterwardsChainsToIt) {
    ASSERT_TRUE(ImGui_ImplGlfw_InitForOpenGL(window->handle(), true));
    ImGui_ImplGlfw_MouseButtonCallback(window->handle(), GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
    ImGui_ImplGlfw_Shutdown(); // puts our callbacks back
    mouse->feed_imgui();
    EXPECT_TRUE(ImGui::GetIO().MouseDown[0]);
    EXPECT_EQ(mouse->events_seen(), 1u);
}

} // namespace
} // namespace kc
