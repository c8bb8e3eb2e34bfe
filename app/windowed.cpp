#include "windowed.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <fmt/format.h>
#include <imgui.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "canvas.h"
#include "frame_painter.h"
#include "gl_context.h"
#include "image_io.h"
#include "panel.h"
#include "teach_panel.h"
#include "ui_script.h"

namespace kc {

namespace {

// ImGui's context and backends, shut down in reverse order of set-up.
class ImGuiSession {
public:
    ImGuiSession(GLFWwindow* window, const std::string& ini_path) : ini_path_(ini_path) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
        ImGui::StyleColorsDark();
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    ~ImGuiSession() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;

private:
    std::string ini_path_; // ImGui keeps the pointer
};

// The panel layout persists in $XDG_CONFIG_HOME/kcanvas/imgui.ini (or ~/.config/...).
std::string ini_path() {
    namespace fs = std::filesystem;
    fs::path dir;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        dir = fs::path(xdg) / "kcanvas";
    else if (const char* home = std::getenv("HOME"); home && *home)
        dir = fs::path(home) / ".config" / "kcanvas";
    else
        return "imgui.ini";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? std::string("imgui.ini") : (dir / "imgui.ini").string();
}

// Applies what the panel asked for that needs more than a new paint job: size, backend, vsync.
void apply_requests(UiState& s, Canvas& canvas, FramePainter& painter, GlfwWindow& window, bool& vsync_now) {
    if (s.apply_size) {
        s.apply_size = false;
        if (auto e = canvas_size_error(s.edit_width, s.edit_height)) {
            s.message = *e;
        } else if (s.edit_width != canvas.width() || s.edit_height != canvas.height()) {
            canvas.resize(s.edit_width, s.edit_height);
            s.job.params.width = canvas.width();
            s.job.params.height = canvas.height();
            painter.times().clear();
            s.message = fmt::format("canvas resized to {}x{}", canvas.width(), canvas.height());
        }
    }
    if (s.requested_backend != painter.backend()) {
        if (!painter.set_backend(s.requested_backend)) {
            s.message = fmt::format("{} is not available: {}", backend_name(s.requested_backend),
                                    painter.unavailable_reason(s.requested_backend));
            s.requested_backend = painter.backend();
        }
    }
    if (s.requested_present != painter.present()) painter.set_present(s.requested_present);
    if (s.vsync != vsync_now) {
        window.set_vsync(s.vsync);
        vsync_now = s.vsync;
        painter.times().clear();
    }
}

} // namespace

int run_windowed(const Options& o) {
    GlfwWindow window(1280, 860, "Kernel Canvas", o.vsync);
    ImGuiSession imgui(window.handle(), o.script.empty() ? ini_path() : std::string());
    FramePainter painter(o.backend);
    painter.set_present(o.present);
    Canvas canvas(o.width, o.height);
    std::unique_ptr<UiScript> script = o.script.empty() ? nullptr : std::make_unique<UiScript>(o.script);

    UiState state;
    state.job = job_from_options(o);
    state.edit_width = o.width;
    state.edit_height = o.height;
    state.requested_backend = painter.backend();
    state.requested_present = painter.present();
    state.vsync = o.vsync;
    bool vsync_now = o.vsync;
    int fb_w = 0, fb_h = 0;
    const UiScript::Hooks hooks{
        [&](const std::string& path) { return write_image(path, canvas.width(), canvas.height(), canvas.read_texture()); },
        [&](const std::string& path) { return write_image(path, fb_w, fb_h, read_framebuffer(fb_w, fb_h)); }};

    auto last_frame = std::chrono::steady_clock::now();
    double frame_ms = 0.0;
    while (!glfwWindowShouldClose(window.handle()) && !state.quit) {
        glfwPollEvents();
        if (glfwGetKey(window.handle(), GLFW_KEY_ESCAPE) == GLFW_PRESS && !ImGui::GetIO().WantTextInput) break;
        if (script) {
            script->step(state, hooks);
            if (state.quit) break;
        }
        apply_requests(state, canvas, painter, window, vsync_now);

        // 1. CUDA (or the CPU emulator) paints the canvas; an illegal launch keeps the old picture.
        try {
            state.refusal = painter.paint(state.job, canvas);
            state.error.clear();
        } catch (const std::exception& e) {
            state.error = e.what();
        }
        painter.collect_timings();

        // 2. The panel edits the state for the next frame.
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const float panel_width = draw_panel(state, {painter, frame_ms});
        draw_canvas_overlay(state, painter, canvas);
        ImGui::Render();

        // 3. Draw the canvas beside the panel, the panel on top, and show it.
        glfwGetFramebufferSize(window.handle(), &fb_w, &fb_h);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        const int left = static_cast<int>(panel_width * fb_w / std::max(1.0f, ImGui::GetIO().DisplaySize.x));
        remember_canvas_rect(state.teach, canvas.draw({left, 0, fb_w - left, fb_h}), fb_w, fb_h);
        glViewport(0, 0, fb_w, fb_h);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (script && script->done()) state.quit = true;
        glfwSwapBuffers(window.handle());

        const auto now = std::chrono::steady_clock::now();
        frame_ms = std::chrono::duration<double, std::milli>(now - last_frame).count();
        last_frame = now;
    }
    return 0;
}

} // namespace kc
