// When present direct lets the op's kernel write the texture (direct_write_refusal): every
// per-pixel op in its plain form may; each thing that needs the linear buffer says why not.
#include <gtest/gtest.h>

#include <string>

#include "gpu/direct_write.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"

namespace kc {
namespace {

PaintJob plain(const OpInfo& op, Mapping mapping = Mapping::TwoD, int ppt = 1) {
    PaintJob j;
    j.op = op.index;
    j.params.width = 333, j.params.height = 211;
    j.launch.mapping = mapping;
    j.launch.pixels_per_thread = ppt;
    return j;
}

std::optional<std::string_view> refusal(const PaintJob& job, bool record = false) {
    return direct_write_refusal(op_registry()[job.op], job, resolve_launch(job, universal_limits()), record);
}

TEST(DirectWrite, EveryPerPixelOpMayWriteTheTextureInItsPlainForm) {
    int per_pixel = 0;
    for (const OpInfo& op : op_registry()) {
        if (op.custom || op.user_code) continue;
        ++per_pixel;
        for (Mapping m : kAllMappings) EXPECT_EQ(refusal(plain(op, m)), std::nullopt) << op.name;
        EXPECT_EQ(refusal(plain(op, Mapping::TwoD, 4)), std::nullopt) << op.name;
    }
    EXPECT_GE(per_pixel, 5);
}

TEST(DirectWrite, CustomOpsAndYourKernelWriteABuffer) {
    int refused = 0;
    for (const OpInfo& op : op_registry()) {
        if (!op.custom && !op.user_code) continue;
        const auto why = refusal(plain(op));
        ASSERT_TRUE(why.has_value()) << op.name;
        EXPECT_NE(why->find(op.user_code ? "your kernel" : "its own kernels"), std::string_view::npos) << *why;
        ++refused;
    }
    EXPECT_GE(refused, 4); // box_blur, sobel, histogram, matmul, user_kernel
}

TEST(DirectWrite, WhatNeedsTheBufferSaysSo) {
    const OpInfo& invert = *find_op("invert");
    for (View v : all_views()) {
        PaintJob j = plain(invert);
        j.view = v;
        EXPECT_EQ(refusal(j).has_value(), v != View::Pixels) << view_name(v);
    }
    PaintJob step = plain(invert);
    step.max_blocks = 0; // step mode, even before the first block
    EXPECT_EQ(refusal(step), std::optional<std::string_view>("step mode paints part of the grid"));
    EXPECT_NE(refusal(plain(invert), true).value_or("").find("inspector"), std::string_view::npos);

    PaintJob small = plain(invert); // a hand-set grid that leaves pixels unwritten: hatched first
    small.launch.auto_grid = false;
    small.launch.grid = {2, 2, 1};
    EXPECT_NE(refusal(small).value_or("").find("unwritten"), std::string_view::npos);
    small.launch.mapping = Mapping::GridStride; // the same grid strides over every pixel
    EXPECT_EQ(refusal(small), std::nullopt);
}

} // namespace
} // namespace kc
