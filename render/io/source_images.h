#pragma once
// The (up to) two input images the operations read as A and B: the files as loaded, and copies
// fitted to the canvas size (nearest neighbour, redone only when an image or the canvas changes).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "render/io/image_io.h"

namespace kc {

class SourceImages {
public:
    static constexpr int kSlots = 2; // 0: A (--image), 1: B (--image2)

    // Loads `path` into `slot` and fits it to the current size. On failure returns why and keeps
    // whatever the slot held.
    std::optional<std::string> load(int slot, const std::string& path);
    // Puts an image made in memory into `slot` (benchmarks, tests), fitted like a loaded one.
    void set(int slot, Image image, const std::string& label);
    void clear(int slot);
    // Re-fits the loaded images to a new canvas size.
    void fit(int width, int height);

    bool loaded(int slot) const { return !slots_[slot].image.pixels.empty(); }
    // width*height fitted pixels, or nullptr when the slot is empty (or nothing was fitted yet).
    const Pixel* fitted(int slot) const { return slots_[slot].fitted.empty() ? nullptr : slots_[slot].fitted.data(); }
    const std::string& path(int slot) const { return slots_[slot].path; }
    const Image& original(int slot) const { return slots_[slot].image; }
    int width() const { return width_; }
    int height() const { return height_; }
    // Changes whenever a fitted image changes, so painters upload only then; unique across objects.
    std::uint64_t generation() const { return generation_; }

private:
    struct Slot {
        std::string path;
        Image image;
        std::vector<Pixel> fitted;
    };
    std::array<Slot, kSlots> slots_;
    int width_ = 0, height_ = 0;
    static std::uint64_t next_generation();
    std::uint64_t generation_ = next_generation();
};

} // namespace kc
