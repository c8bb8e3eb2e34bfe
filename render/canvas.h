#pragma once
// The picture: a pixel buffer (GL_PIXEL_UNPACK_BUFFER) that painters write, the texture it is
// uploaded to, and the drawing of that texture, aspect-fit, into a viewport.
#include <memory>
#include <vector>

#include "gpu/pixel.h"
#include "render/gl_objects.h"

namespace kc {

struct Rect {
    int x = 0, y = 0, w = 0, h = 0; // GL convention: x, y from the bottom-left
};

// A part of the texture: u across, t down from image row 0, both 0..1 over the whole picture.
struct TexturePart {
    float u0 = 0, t0 = 0, u1 = 1, t1 = 1;
};

// Something bound to the canvas' GL objects, e.g. their CUDA registration (present_interop.cpp).
// The canvas owns it and releases it before it deletes the objects, on resize and at exit: the
// order of NVIDIA's samples (unregister, then delete the GL object).
class CanvasLink {
public:
    virtual ~CanvasLink() = default;
};

class Canvas {
public:
    Canvas(int width, int height);
    ~Canvas();
    Canvas(const Canvas&) = delete;
    Canvas& operator=(const Canvas&) = delete;
    // Releases the links, then re-creates the buffer and the texture.
    void resize(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t pixel_count() const { return std::size_t(width_) * height_; }
    std::size_t bytes() const { return pixel_count() * sizeof(Pixel); }
    GLuint pixel_buffer() const { return pixel_buffer_.id(); }
    GLuint texture() const { return texture_.id(); }
    // The link of type T the canvas holds for its current objects, or null (none yet, or resized since).
    template <class T>
    T* link() const {
        for (const auto& l : links_)
            if (auto* t = dynamic_cast<T*>(l.get())) return t;
        return nullptr;
    }
    // Holds `link` until the next resize or the canvas' end, whichever comes first.
    template <class T>
    T& add_link(std::unique_ptr<T> link) {
        T& held = *link;
        links_.push_back(std::move(link));
        return held;
    }

    void upload_from_pixel_buffer();            // pixel buffer -> texture, a copy on the GPU (pbo)
    void upload_from_host(const Pixel* pixels); // host memory -> texture
    // CUDA copied canvas pixels (B,G,R,A bytes) straight into the texture's RGBA8 storage: red and
    // blue sit in each other's channels, so drawing and reading swap them back.
    void mark_texture_written_raw() { texture_holds_raw_bgra_ = true; }
    void mark_texture_written_rgba() { texture_holds_raw_bgra_ = false; }
    // Draws the texture aspect-fit into `viewport` of the bound framebuffer; returns where it landed.
    Rect draw(const Rect& viewport) const;
    // Draws `part` of the texture stretched over `screen` of the bound framebuffer (a zoomed view).
    void draw_part(const Rect& screen, const TexturePart& part) const;

    std::vector<Pixel> read_pixel_buffer() const;              // what the painters wrote
    std::vector<Pixel> read_texture() const;                   // what is shown
    Pixel read_texel(int x, int y) const;                      // one shown pixel, row 0 at the top (the inspector)
    void write_pixel_buffer(const std::vector<Pixel>& pixels); // for tests: poison the buffer

private:
    std::vector<Pixel> read_region(int x, int y, int w, int h) const;
    void release_links();
    int width_ = 0, height_ = 0;
    GlBuffer pixel_buffer_;
    GlTexture texture_;
    GlProgram program_;
    GlVertexArray vertex_array_;
    GLint swap_red_blue_location_ = -1;
    GLint source_location_ = -1;
    bool texture_holds_raw_bgra_ = false;
    std::vector<std::unique_ptr<CanvasLink>> links_; // released first (release_links), newest first
};

// The bound framebuffer's colour (e.g. the window: canvas and panel), rows top first.
std::vector<Pixel> read_framebuffer(int width, int height);

} // namespace kc
