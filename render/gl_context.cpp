#include "render/gl_context.h"

#include <algorithm>

#include <glad/egl.h>
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <fmt/format.h>

#include <optional>
#include <string_view>
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

namespace {

// Loads libEGL's client entry points and lists the devices of its device platform; throws
// ContextError saying what is missing.
std::vector<EGLDeviceEXT> egl_devices() {
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
    devices.resize(count);
    return devices;
}

// The CUDA device an EGL device drives (EGL_NV_device_cuda), if any.
std::optional<int> cuda_device_of(EGLDeviceEXT device) {
    EGLAttrib cuda = -1;
    if (!eglQueryDeviceAttribEXT(device, EGL_CUDA_DEVICE_NV, &cuda) || cuda < 0) {
        eglGetError(); // a device without the extension answers EGL_BAD_ATTRIBUTE: not an error here
        return std::nullopt;
    }
    return static_cast<int>(cuda);
}

// Whether a space-separated extension string names `extension` (whole, not as a prefix).
bool has_extension(std::string_view extensions, std::string_view extension) {
    for (std::size_t at = 0; at < extensions.size();) {
        const std::size_t end = std::min(extensions.find(' ', at), extensions.size());
        if (extensions.substr(at, end - at) == extension) return true;
        at = end + 1;
    }
    return false;
}

bool has_device_extension(EGLDeviceEXT device, std::string_view extension) {
    const char* extensions = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(device, EGL_EXTENSIONS) : nullptr;
    return extensions && has_extension(extensions, extension);
}

// A device string of an extension the device has, or "".
std::string device_string(EGLDeviceEXT device, const char* extension, EGLint name) {
    if (!has_device_extension(device, extension)) return {};
    const char* value = eglQueryDeviceStringEXT(device, name);
    return value ? value : "";
}

} // namespace

EglDeviceList list_egl_devices() {
    EglDeviceList list;
    try {
        const std::vector<EGLDeviceEXT> devices = egl_devices();
        for (std::size_t i = 0; i < devices.size(); ++i) {
            constexpr EGLint kDrmDeviceFile = 0x3233; // EGL_EXT_device_drm
            constexpr EGLint kRenderer = 0x335F;      // EGL_EXT_device_query_name
            list.devices.push_back({static_cast<int>(i), cuda_device_of(devices[i]),
                                    device_string(devices[i], "EGL_EXT_device_drm", kDrmDeviceFile),
                                    device_string(devices[i], "EGL_EXT_device_query_name", kRenderer)});
            if (list.devices.back().renderer.empty() && has_device_extension(devices[i], "EGL_MESA_device_software"))
                list.devices.back().renderer = "software rendering";
        }
    } catch (const ContextError& e) {
        list.why_not = e.what();
    }
    return list;
}

EglHeadlessContext::EglHeadlessContext(int cuda_device) {
    const std::vector<EGLDeviceEXT> devices = egl_devices();
    const int count = static_cast<int>(devices.size());

    // Pick the device CUDA uses (EGL_NV_device_cuda), so interop registers on the right GPU.
    int chosen = -1;
    std::string driven; // the CUDA devices EGL does drive, for the refusal
    for (int i = 0; i < count && cuda_device >= 0 && chosen < 0; ++i) {
        const std::optional<int> cuda = cuda_device_of(devices[i]);
        if (cuda == cuda_device) chosen = i;
        if (cuda) driven += (driven.empty() ? "" : ", ") + std::to_string(*cuda);
    }
    if (cuda_device >= 0 && chosen < 0)
        throw ContextError(driven.empty() ? fmt::format("no EGL device drives CUDA device {}: the GL driver is not "
                                                        "NVIDIA's",
                                                        cuda_device)
                                          : fmt::format("no EGL device drives CUDA device {} (EGL's devices drive "
                                                        "CUDA devices {})",
                                                        cuda_device, driven));

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

std::string gl_renderer_name() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return renderer ? renderer : "?";
}

std::string gl_renderer_string() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return fmt::format("{} (OpenGL {})", renderer ? renderer : "?", version ? version : "?");
}

} // namespace kc
