#pragma once
// The GPU tests that paint through GL: GpuTest's set-up plus a headless EGL context on the test
// GPU, or a skip that says why there is none. (A header of its own: the gpu layer's tests link
// kc_gpu alone and must not reach render/.)
#include <gtest/gtest.h>

#include <memory>

#include "render/gl_context.h"
#include "tests/support/gpu_test.h"

namespace kc::test {

class GpuGlTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped()) return;
        try {
            context_ = std::make_unique<EglHeadlessContext>(test_gpu());
        } catch (const std::exception& e) {
            GTEST_SKIP() << "no headless EGL on the CUDA device: " << e.what();
        }
    }
    std::unique_ptr<EglHeadlessContext> context_;
};

} // namespace kc::test
