#include "render/io/source_images.h"

#include <atomic>

namespace kc {

// Unique across all SourceImages: a painter that uploaded another object's images must never
// mistake these for them.
std::uint64_t SourceImages::next_generation() {
    static std::atomic<std::uint64_t> counter{1};
    return ++counter;
}

std::optional<std::string> SourceImages::load(int slot, const std::string& path) {
    if (slot < 0 || slot >= kSlots) return "no image slot " + std::to_string(slot);
    Image image;
    if (auto error = load_image(path, image)) return error;
    set(slot, std::move(image), path);
    return std::nullopt;
}

void SourceImages::set(int slot, Image image, const std::string& label) {
    Slot& s = slots_[slot];
    s.path = label;
    s.image = std::move(image);
    s.fitted = width_ > 0 ? fit_image(s.image, width_, height_) : std::vector<Pixel>{};
    generation_ = next_generation();
}

void SourceImages::clear(int slot) {
    slots_[slot] = Slot{};
    generation_ = next_generation();
}

void SourceImages::fit(int width, int height) {
    if (width == width_ && height == height_) return;
    width_ = width, height_ = height;
    for (Slot& s : slots_)
        if (!s.image.pixels.empty()) s.fitted = fit_image(s.image, width, height);
    generation_ = next_generation();
}

} // namespace kc
