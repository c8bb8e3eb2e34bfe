#include "render/canvas.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kc {

namespace {

// A full-screen triangle showing the texture's part `source` (u0, t0, u1, t1; t = 0 is image row
// 0, the picture's top, which GL draws at the viewport's top).
const char* kVertexShader = R"(#version 330 core
out vec2 uv;
uniform vec4 source;
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    uv = vec2(mix(source.x, source.z, p.x), mix(source.w, source.y, p.y));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
})";
const char* kFragmentShader = R"(#version 330 core
in vec2 uv;
out vec4 colour;
uniform sampler2D image;
uniform bool swap_red_blue;
void main() {
    vec3 c = texture(image, uv).rgb;
    colour = vec4(swap_red_blue ? c.bgr : c, 1.0);
})";

GLuint compile(GLenum type, const char* source) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        glDeleteShader(shader);
        throw std::runtime_error(std::string("canvas shader failed to compile: ") + log);
    }
    return shader;
}

} // namespace

Canvas::Canvas(int width, int height) {
    program_ = GlProgram::create();
    const GLuint vs = compile(GL_VERTEX_SHADER, kVertexShader);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, kFragmentShader);
    glAttachShader(program_.id(), vs);
    glAttachShader(program_.id(), fs);
    glLinkProgram(program_.id());
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program_.id(), GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("canvas shader program failed to link");
    vertex_array_ = GlVertexArray::create();
    swap_red_blue_location_ = glGetUniformLocation(program_.id(), "swap_red_blue");
    source_location_ = glGetUniformLocation(program_.id(), "source");
    resize(width, height);
}

Canvas::~Canvas() { release_links(); }

void Canvas::release_links() {
    while (!links_.empty()) links_.pop_back();
}

void Canvas::resize(int width, int height) {
    release_links(); // before the objects they are bound to go
    width_ = width;
    height_ = height;
    texture_holds_raw_bgra_ = false;
    pixel_buffer_ = GlBuffer::create();
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_.id());
    glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes()), nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

    texture_ = GlTexture::create();
    glBindTexture(GL_TEXTURE_2D, texture_.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST); // zoomed-in pixels stay crisp
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, nullptr);
    glBindTexture(GL_TEXTURE_2D, 0);
    // A new canvas shows the "uncovered" colour until the first paint, never undefined memory.
    GlFramebuffer fbo = GlFramebuffer::create();
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo.id());
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_.id(), 0);
    glClearColor(kUncoveredPixel.r / 255.0f, kUncoveredPixel.g / 255.0f, kUncoveredPixel.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous));
    if (glGetError() != GL_NO_ERROR)
        throw std::runtime_error("cannot allocate a " + std::to_string(width) + "x" + std::to_string(height) +
                                 " canvas on the GPU");
}

void Canvas::upload_from_pixel_buffer() {
    texture_holds_raw_bgra_ = false;
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_.id());
    glBindTexture(GL_TEXTURE_2D, texture_.id());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, nullptr);
    // Left bound, the buffer would turn ImGui's own texture uploads into buffer reads.
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void Canvas::upload_from_host(const Pixel* pixels) {
    texture_holds_raw_bgra_ = false;
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, texture_.id());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, pixels);
    glBindTexture(GL_TEXTURE_2D, 0);
}

Rect Canvas::draw(const Rect& viewport) const {
    // Largest rectangle of the image's aspect ratio inside the viewport, centred.
    Rect r = viewport;
    if (viewport.w <= 0 || viewport.h <= 0) return r;
    if (1.0 * viewport.w * height_ > 1.0 * viewport.h * width_) {
        r.w = static_cast<int>(1.0 * viewport.h * width_ / height_);
        r.x += (viewport.w - r.w) / 2;
    } else {
        r.h = static_cast<int>(1.0 * viewport.w * height_ / width_);
        r.y += (viewport.h - r.h) / 2;
    }
    draw_part(r, {0, 0, 1, 1});
    return r;
}

void Canvas::draw_part(const Rect& screen, const TexturePart& part) const {
    if (screen.w <= 0 || screen.h <= 0) return;
    glViewport(screen.x, screen.y, screen.w, screen.h);
    glUseProgram(program_.id());
    glUniform1i(swap_red_blue_location_, texture_holds_raw_bgra_ ? 1 : 0);
    glUniform4f(source_location_, part.u0, part.t0, part.u1, part.t1);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_.id());
    glBindVertexArray(vertex_array_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
}

std::vector<Pixel> Canvas::read_pixel_buffer() const {
    std::vector<Pixel> pixels(pixel_count());
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_.id());
    glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes()), pixels.data());
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    return pixels;
}

void Canvas::write_pixel_buffer(const std::vector<Pixel>& pixels) {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer_.id());
    glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes()), pixels.data());
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

std::vector<Pixel> Canvas::read_region(int x, int y, int w, int h) const {
    std::vector<Pixel> pixels(std::size_t(w) * h);
    GlFramebuffer fbo = GlFramebuffer::create();
    GLint previous = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo.id());
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_.id(), 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    // Texture row y is image row y (uploads start at row 0). A raw BGRA copy is read back as RGBA.
    glReadPixels(x, y, w, h, texture_holds_raw_bgra_ ? GL_RGBA : GL_BGRA, GL_UNSIGNED_BYTE, pixels.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous));
    return pixels;
}

std::vector<Pixel> Canvas::read_texture() const { return read_region(0, 0, width_, height_); }

Pixel Canvas::read_texel(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return Pixel{0, 0, 0, 0};
    return read_region(x, y, 1, 1).front();
}

std::vector<Pixel> read_framebuffer(int width, int height) {
    std::vector<Pixel> pixels(std::size_t(width) * height);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, width, height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, pixels.data());
    // GL's rows start at the bottom.
    for (int y = 0; y < height / 2; ++y)
        std::swap_ranges(pixels.begin() + std::ptrdiff_t(y) * width, pixels.begin() + std::ptrdiff_t(y + 1) * width,
                         pixels.begin() + std::ptrdiff_t(height - 1 - y) * width);
    return pixels;
}

} // namespace kc
