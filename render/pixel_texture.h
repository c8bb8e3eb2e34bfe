#pragma once
// A picture of canvas pixels (B,G,R,A, row 0 first) as a GL texture the panel draws scaled down
// (ImGui::Image): an exercise's target, the student's picture and their diff. Mipmapped, so a
// picture shown at a fraction of its size keeps its lone red pixels as a tint, not as chance.
#include <vector>

#include "gpu/pixel.h"
#include "render/gl_objects.h"

namespace kc {

class PixelTexture {
public:
    // Puts width x height `pixels` into the texture (made, or remade at a new size). Needs the GL
    // context current; `pixels` holds width * height of them, else the texture is emptied.
    void upload(int width, int height, const std::vector<Pixel>& pixels);
    void reset() {
        texture_.reset();
        width_ = height_ = 0;
    }
    GLuint id() const { return texture_.id(); }
    int width() const { return width_; }
    int height() const { return height_; }
    bool empty() const { return !texture_; }

private:
    GlTexture texture_;
    int width_ = 0, height_ = 0;
};

} // namespace kc
