#pragma once
// Decodes a GIF with giflib into whole frames (each sub-image laid over the frame before, its
// transparent index letting the earlier pixels show), for checking recordings.
#include <gif_lib.h>

#include <string>
#include <vector>

#include "gpu/pixel.h"

namespace kc::test {

struct DecodedGif {
    int width = 0, height = 0;
    std::vector<std::vector<Pixel>> frames;
    std::vector<int> delays; // hundredths of a second
    bool ok = false;
};

inline DecodedGif decode_gif(const std::string& path) {
    DecodedGif out;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    if (!gif) return out;
    if (DGifSlurp(gif) != GIF_OK) {
        DGifCloseFile(gif, &error);
        return out;
    }
    out.width = gif->SWidth, out.height = gif->SHeight;
    std::vector<Pixel> canvas(std::size_t(out.width) * out.height, Pixel{0, 0, 0, 255});
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& im = gif->SavedImages[i];
        GraphicsControlBlock gcb{DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(gif, i, &gcb);
        const ColorMapObject* map = im.ImageDesc.ColorMap ? im.ImageDesc.ColorMap : gif->SColorMap;
        const GifImageDesc& d = im.ImageDesc;
        for (int y = 0; y < d.Height; ++y)
            for (int x = 0; x < d.Width; ++x) {
                const int index = im.RasterBits[y * d.Width + x];
                if (index == gcb.TransparentColor) continue;
                const GifColorType c = map->Colors[index];
                canvas[std::size_t(d.Top + y) * out.width + d.Left + x] = Pixel{c.Blue, c.Green, c.Red, 255};
            }
        out.frames.push_back(canvas);
        out.delays.push_back(gcb.DelayTime);
    }
    DGifCloseFile(gif, &error);
    out.ok = true;
    return out;
}

} // namespace kc::test
