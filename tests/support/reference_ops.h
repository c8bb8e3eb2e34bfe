#pragma once
// Independent CPU references for the image operations, written from the formulas in README.md
// without calling the operations' functors. Images are BGRA kc::Pixel, row-major.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gpu/pixel.h"

namespace kc::ref {

struct Img {
    int w = 0, h = 0;
    std::vector<Pixel> px;
    Pixel at(int x, int y) const { return px[std::size_t(y) * w + x]; }
    Pixel clamped(int x, int y) const { return at(std::clamp(x, 0, w - 1), std::clamp(y, 0, h - 1)); }
};

inline Img random_image(int w, int h, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(0, 255);
    Img im{w, h, std::vector<Pixel>(std::size_t(w) * h)};
    for (Pixel& p : im.px) p = Pixel{uint8_t(d(rng)), uint8_t(d(rng)), uint8_t(d(rng)), 255};
    return im;
}

// A random image with smooth regions too, so blurs and edges see more than noise.
inline Img blobby_image(int w, int h, unsigned seed) {
    Img im = random_image(w, h, seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if ((x / 7 + y / 5) % 3 == 0)
                im.px[std::size_t(y) * w + x] = Pixel{uint8_t(x * 3), uint8_t(y * 5), uint8_t(x + y), 255};
    return im;
}

inline Pixel rgb(int r, int g, int b) { return Pixel{uint8_t(b), uint8_t(g), uint8_t(r), 255}; }

inline int luma(Pixel p) { return static_cast<int>(std::floor(0.299 * p.r + 0.587 * p.g + 0.114 * p.b + 0.5 + 1e-9)); }

inline Img map(const Img& a, auto&& f) {
    Img out{a.w, a.h, std::vector<Pixel>(a.px.size())};
    for (std::size_t i = 0; i < a.px.size(); ++i) out.px[i] = f(a.px[i], i);
    return out;
}

inline Img grayscale(const Img& a) {
    return map(a, [](Pixel p, std::size_t) {
        const int v = luma(p);
        return rgb(v, v, v);
    });
}
inline Img invert(const Img& a) {
    return map(a, [](Pixel p, std::size_t) { return rgb(255 - p.r, 255 - p.g, 255 - p.b); });
}
inline Img add(const Img& a, const Img& b) {
    return map(a, [&](Pixel p, std::size_t i) {
        const Pixel q = b.px[i];
        return rgb(std::min(255, p.r + q.r), std::min(255, p.g + q.g), std::min(255, p.b + q.b));
    });
}
inline Img threshold(const Img& a, int level) {
    return map(a, [&](Pixel p, std::size_t) {
        const int v = luma(p) >= level ? 255 : 0;
        return rgb(v, v, v);
    });
}
inline Img blend(const Img& a, const Img& b, double w) {
    auto mix = [w](int x, int y) { return static_cast<int>(std::floor(w * x + (1 - w) * y + 0.5)); };
    return map(a, [&](Pixel p, std::size_t i) {
        const Pixel q = b.px[i];
        return rgb(mix(p.r, q.r), mix(p.g, q.g), mix(p.b, q.b));
    });
}
// --integer: weights in 256ths, W = round(256 w), each term truncated as C integers are
// (the tutorial's a*3/4 + b/4 at w = 0.75).
inline Img blend_integer(const Img& a, const Img& b, double w) {
    const int W = static_cast<int>(std::floor(w * 256 + 0.5));
    auto mix = [W](int x, int y) { return x * W / 256 + y * (256 - W) / 256; };
    return map(a, [&](Pixel p, std::size_t i) {
        const Pixel q = b.px[i];
        return rgb(mix(p.r, q.r), mix(p.g, q.g), mix(p.b, q.b));
    });
}
inline Img box_blur(const Img& a, int r) {
    Img out{a.w, a.h, std::vector<Pixel>(a.px.size())};
    const double n = (2 * r + 1) * (2 * r + 1);
    for (int y = 0; y < a.h; ++y)
        for (int x = 0; x < a.w; ++x) {
            double s[3] = {0, 0, 0};
            for (int v = y - r; v <= y + r; ++v)
                for (int u = x - r; u <= x + r; ++u) {
                    const Pixel p = a.clamped(u, v);
                    s[0] += p.r, s[1] += p.g, s[2] += p.b;
                }
            auto rnd = [n](double t) { return static_cast<int>(std::floor(t / n + 0.5)); };
            out.px[std::size_t(y) * a.w + x] = rgb(rnd(s[0]), rnd(s[1]), rnd(s[2]));
        }
    return out;
}
inline Img sobel(const Img& a) {
    Img out{a.w, a.h, std::vector<Pixel>(a.px.size())};
    static constexpr int kx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
    for (int y = 0; y < a.h; ++y)
        for (int x = 0; x < a.w; ++x) {
            int gx = 0, gy = 0;
            for (int j = -1; j <= 1; ++j)
                for (int i = -1; i <= 1; ++i) {
                    const int l = luma(a.clamped(x + i, y + j));
                    gx += kx[j + 1][i + 1] * l;
                    gy += kx[i + 1][j + 1] * l;
                }
            const int m =
                std::min(255, static_cast<int>(std::floor(std::sqrt(double(gx) * gx + double(gy) * gy) + 0.5)));
            out.px[std::size_t(y) * a.w + x] = rgb(m, m, m);
        }
    return out;
}
// [0] luminance, [1] R, [2] G, [3] B
inline std::array<std::array<std::uint32_t, 256>, 4> histogram(const Img& a) {
    std::array<std::array<std::uint32_t, 256>, 4> h{};
    for (Pixel p : a.px) ++h[0][luma(p)], ++h[1][p.r], ++h[2][p.g], ++h[3][p.b];
    return h;
}
// Escape iterations of z <- z^2 + c from z0, in double.
inline int escape(double zx, double zy, double cx, double cy, int max_iter) {
    int n = 0;
    while (n < max_iter && zx * zx + zy * zy <= 4.0) {
        const double t = zx * zx - zy * zy + cx;
        zy = 2 * zx * zy + cy;
        zx = t;
        ++n;
    }
    return n;
}
inline Pixel palette(int n, int max_iter) {
    if (n >= max_iter) return rgb(0, 0, 0);
    const double t = double(n) / max_iter, u = 1 - t;
    return rgb(int(9 * u * t * t * t * 255), int(15 * u * u * t * t * 255), int(8.5 * u * u * u * t * 255));
}

// Channel-wise largest difference between two images of one size.
inline int max_diff(const std::vector<Pixel>& a, const std::vector<Pixel>& b) {
    int d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max({d, std::abs(a[i].r - b[i].r), std::abs(a[i].g - b[i].g), std::abs(a[i].b - b[i].b),
                      std::abs(a[i].a - b[i].a)});
    return d;
}

} // namespace kc::ref
