#include "gl_context.h"

#include <algorithm>

#include <glad/egl.h>
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <fmt/format.h>

#include <vector>

namespace kc {

namespace {
void glfw_error_callback(int code, const char* text) { fmt::print(stderr, "kcanvas: GLFW error {}: {}\n", code, text); }

// The window a screen holds: at least the size asked for where the screen is larger (a big
// screen gets most of its work area), never larger than the work area.
void fit_to_screen(int& width, int& height) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    int x = 0, y = 0, w = 0, h = 0;
    if (monitor) glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
    if (w <= 0 || h <= 0) return;
    width = std::min(std::max(width, w * 4 / 5), w);
    height = std::min(std::max(height, h * 17 / 20), h);
}

} // namespace

GlfwWindow::GlfwWindow(int width, int height, const std::string& title, bool vsync) {
    glfwSetErrorCallback(glfw_error_callback);
    if (!glfwInit()) throw ContextError(kNoDisplayMessage);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    fit_to_screen(width, height);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw ContextError("cannot open a window with an OpenGL 3.3 core context");
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw ContextError("cannot load the OpenGL functions");
    }
    set_vsync(vsync);
}

GlfwWindow::~GlfwWindow() {
    glfwDestroyWindow(window_);
    glfwTerminate();
}

void GlfwWindow::set_vsync(bool on) { glfwSwapInterval(on ? 1 : 0); }

EglHeadlessContext::EglHeadlessContext(int cuda_device) {
    // Client extensions first: with no display, glad loads the device-enumeration entry points.
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        throw ContextError("cannot load libEGL.so.1: headless rendering needs the EGL loader (libegl1)");
    // EGL_EXT_device_base bundles enumeration and query; what matters is that the entry points exist.
    if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT || !eglQueryDeviceAttribEXT) {
        const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
        throw ContextError(fmt::format("this EGL has no device platform (EGL_EXT_device_enumeration, "
                                       "EGL_EXT_platform_device); its client extensions: {}. Is a GPU driver's EGL "
                                       "vendor library installed (glvnd: __EGL_VENDOR_LIBRARY_FILENAMES)?",
                                       client ? client : "none"));
    }

    EGLint count = 0;
    eglQueryDevicesEXT(0, nullptr, &count);
    std::vector<EGLDeviceEXT> devices(count);
    if (count == 0 || !eglQueryDevicesEXT(count, devices.data(), &count) || count == 0)
        throw ContextError("no EGL device found: headless rendering needs a GPU driver with EGL");

    // Pick the device CUDA uses (EGL_NV_device_cuda), so interop registers on the right GPU.
    int chosen = -1;
    for (int i = 0; i < count && cuda_device >= 0 && chosen < 0; ++i) {
        EGLAttrib cuda = -1;
        if (eglQueryDeviceAttribEXT(devices[i], EGL_CUDA_DEVICE_NV, &cuda) && cuda == cuda_device) chosen = i;
    }
    if (cuda_device >= 0 && chosen < 0)
        throw ContextError(
            fmt::format("no EGL device drives CUDA device {}: the GL driver is not NVIDIA's", cuda_device));

    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE,    EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,  EGL_NONE};
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    std::string last_error = "no usable EGL device";
    for (int i = 0; i < count; ++i) {
        const int index = chosen >= 0 ? chosen : i;
        EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[index], nullptr);
        EGLint major = 0, minor = 0;
        if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
            last_error = fmt::format("eglInitialize failed on EGL device {} (error 0x{:x})", index, eglGetError());
            if (chosen >= 0) break;
            continue;
        }
        gladLoaderLoadEGL(display); // now the display's extensions and EGL 1.5 core
        EGLConfig config{};
        EGLint configs = 0;
        EGLContext context = EGL_NO_CONTEXT;
        if (eglChooseConfig(display, config_attribs, &config, 1, &configs) && configs > 0 && eglBindAPI(EGL_OPENGL_API))
            context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
        // No surface: kcanvas renders into its own framebuffer objects.
        if (context != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) &&
            gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
            display_ = display;
            context_ = context;
            description_ =
                fmt::format("EGL {}.{} device {} of {}: {}", major, minor, index, count, gl_renderer_string());
            return;
        }
        last_error = fmt::format("no OpenGL 3.3 core context on EGL device {} (error 0x{:x})", index, eglGetError());
        if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
        eglTerminate(display);
        if (chosen >= 0) break;
    }
    throw ContextError(last_error);
}

EglHeadlessContext::~EglHeadlessContext() {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
    gladLoaderUnloadEGL();
}

std::string gl_renderer_string() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return fmt::format("{} (OpenGL {})", renderer ? renderer : "?", version ? version : "?");
}

} // namespace kc
