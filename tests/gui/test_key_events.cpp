// KeyEvents on a real GLFW window (so it needs a display): presses queue from the key callback in
// order, and a press released before the frame is held down for ImGui for exactly one frame.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <cstdlib>
#include <memory>

#include "app/window/key_events.h"
#include "render/gl_context.h"

namespace kc {
namespace {

// The callback KeyEvents installed (GLFW 3.3 has no getter: set and put back).
GLFWkeyfun installed_callback(GLFWwindow* window) {
    const GLFWkeyfun ours = glfwSetKeyCallback(window, nullptr);
    glfwSetKeyCallback(window, ours);
    return ours;
}

class KeyEventsTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
        window = std::make_unique<GlfwWindow>(64, 64, "key events test", false);
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the test's folder
        keys = std::make_unique<KeyEvents>(window->handle());
        send = installed_callback(window->handle());
        ASSERT_NE(send, nullptr);
    }
    void TearDown() override {
        keys.reset();
        if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
        window.reset();
    }
    std::unique_ptr<GlfwWindow> window;
    std::unique_ptr<KeyEvents> keys;
    GLFWkeyfun send = nullptr;
};

TEST_F(KeyEventsTest, PressesQueueInOrderWithTheirModifiers) {
    send(window->handle(), GLFW_KEY_F12, 0, GLFW_PRESS, 0);
    send(window->handle(), GLFW_KEY_F12, 0, GLFW_RELEASE, 0);
    send(window->handle(), GLFW_KEY_Q, 0, GLFW_PRESS, GLFW_MOD_CONTROL);
    send(window->handle(), GLFW_KEY_Q, 0, GLFW_REPEAT, GLFW_MOD_CONTROL); // a held key: not a new press
    const std::vector<KeyPress> presses = keys->drain();
    ASSERT_EQ(presses.size(), 2u);
    EXPECT_EQ(presses[0].key, GLFW_KEY_F12);
    EXPECT_EQ(presses[1].key, GLFW_KEY_Q);
    EXPECT_EQ(presses[1].mods, GLFW_MOD_CONTROL);
    EXPECT_TRUE(keys->drain().empty()); // drained
}

TEST_F(KeyEventsTest, AShortPressIsHeldForImGuiForOneFrame) {
    ImGuiIO& io = ImGui::GetIO();
    // Ctrl+Enter pressed and released between two frames: ImGui's key state never saw it.
    send(window->handle(), GLFW_KEY_ENTER, 0, GLFW_PRESS, GLFW_MOD_CONTROL);
    send(window->handle(), GLFW_KEY_ENTER, 0, GLFW_RELEASE, GLFW_MOD_CONTROL);
    ASSERT_FALSE(io.KeysDown[GLFW_KEY_ENTER]);
    keys->hold_short_presses(keys->drain());
    EXPECT_TRUE(io.KeysDown[GLFW_KEY_ENTER]);
    EXPECT_TRUE(io.KeyCtrl);
    keys->hold_short_presses(keys->drain()); // the next frame lets it go
    EXPECT_FALSE(io.KeysDown[GLFW_KEY_ENTER]);
    EXPECT_FALSE(io.KeyCtrl);
}

TEST_F(KeyEventsTest, AKeyStillDownIsLeftToImGui) {
    ImGuiIO& io = ImGui::GetIO();
    send(window->handle(), GLFW_KEY_ESCAPE, 0, GLFW_PRESS, 0);
    io.KeysDown[GLFW_KEY_ESCAPE] = true; // what ImGui's backend callback does after ours
    keys->hold_short_presses(keys->drain());
    EXPECT_TRUE(io.KeysDown[GLFW_KEY_ESCAPE]);
    keys->hold_short_presses(keys->drain());
    EXPECT_TRUE(io.KeysDown[GLFW_KEY_ESCAPE]); // not released by us: it was never ours to hold
}

// Installed before ImGui's GLFW backend, KeyEvents still hears every key: the backend keeps the
// callback it replaces and calls it first (what the window and the script's `key` verb rely on).
TEST_F(KeyEventsTest, ImGuisBackendInstalledAfterwardsChainsToIt) {
    ASSERT_TRUE(ImGui_ImplGlfw_InitForOpenGL(window->handle(), true));
    ImGui_ImplGlfw_KeyCallback(window->handle(), GLFW_KEY_F12, 0, GLFW_PRESS, 0);
    const std::vector<KeyPress> presses = keys->drain();
    ImGui_ImplGlfw_Shutdown(); // puts our callback back
    ASSERT_EQ(presses.size(), 1u);
    EXPECT_EQ(presses[0].key, GLFW_KEY_F12);
    EXPECT_TRUE(ImGui::GetIO().KeysDown[GLFW_KEY_F12]); // and ImGui saw it too
    EXPECT_EQ(installed_callback(window->handle()), send);
}

} // namespace
} // namespace kc
