#pragma once
// The two ways kcanvas gets an OpenGL 3.3 core context: a GLFW window, or headless EGL on a GPU's
// device platform (for servers and scripts). Both throw ContextError with a readable reason.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct GLFWwindow;

namespace kc {

class ContextError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What GlfwWindow throws where there is no display at all (tests skip on exactly this).
inline constexpr const char* kNoDisplayMessage =
    "cannot open a window: no display could be opened (is DISPLAY set? for servers use --headless)";

class GlfwWindow {
public:
    // width x height, or most of a larger screen's work area; never larger than the work area.
    GlfwWindow(int width, int height, const std::string& title, bool vsync);
    ~GlfwWindow();
    GlfwWindow(const GlfwWindow&) = delete;
    GlfwWindow& operator=(const GlfwWindow&) = delete;
    GLFWwindow* handle() const { return window_; }
    void set_vsync(bool on);

private:
    GLFWwindow* window_ = nullptr;
};

class EglHeadlessContext {
public:
    // Prefers the EGL device whose CUDA device is `cuda_device` (-1: none wanted, take any GPU
    // device, then a software one). The context is current on return.
    explicit EglHeadlessContext(int cuda_device);
    ~EglHeadlessContext();
    EglHeadlessContext(const EglHeadlessContext&) = delete;
    EglHeadlessContext& operator=(const EglHeadlessContext&) = delete;
    const std::string& description() const { return description_; }

private:
    void* display_ = nullptr;
    void* context_ = nullptr;
    std::string description_;
};

// The devices of EGL's device platform, as --list-gpus shows them. Loads libEGL and leaves it
// loaded; call it while no EglHeadlessContext lives (it reloads EGL's client entry points).
struct EglDeviceSummary {
    int index = 0;
    std::optional<int> cuda_device; // EGL_CUDA_DEVICE_NV: the CUDA device it drives
    std::string drm_file;           // "/dev/dri/card1" (EGL_EXT_device_drm), or ""
    std::string renderer;           // the driver's name for it (EGL_EXT_device_query_name), or ""
};
struct EglDeviceList {
    std::vector<EglDeviceSummary> devices;
    std::string why_not; // why there are none (no libEGL, no device platform)
};
EglDeviceList list_egl_devices();

// GL_RENDERER and GL_VERSION of the current context.
std::string gl_renderer_string();
// GL_RENDERER alone ("NVIDIA H200/PCIe/SSE2", "llvmpipe (LLVM 15.0.6, 256 bits)").
std::string gl_renderer_name();

} // namespace kc
