#pragma once
// GPU time of GL work (texture uploads, drawing) from GL_TIME_ELAPSED queries, read back frames
// later when their results are available, never by waiting.
#include <vector>

#include "render/gl_objects.h"

namespace kc {

class GlTimerRing {
public:
    explicit GlTimerRing(int slots = 8) {
        for (int i = 0; i < slots; ++i) queries_.push_back(GlQuery::create());
    }
    // Only one GL_TIME_ELAPSED query may be active at a time; begin returns false when every
    // slot still waits for the GPU (this frame is then not timed; do not call end).
    bool begin() {
        if (pending_ == queries_.size()) return false;
        glBeginQuery(GL_TIME_ELAPSED, queries_[next_].id());
        return true;
    }
    void end() {
        glEndQuery(GL_TIME_ELAPSED);
        next_ = (next_ + 1) % queries_.size();
        ++pending_;
    }
    template <class F>
    void collect(F&& on_sample_us, bool wait = false) {
        while (pending_ > 0) {
            const GLuint q = queries_[(next_ + queries_.size() - pending_) % queries_.size()].id();
            GLint available = 0;
            if (!wait) glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, &available);
            if (!wait && !available) break;
            GLuint64 ns = 0;
            glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
            --pending_;
            on_sample_us(ns / 1000.0);
        }
    }

private:
    std::vector<GlQuery> queries_;
    std::size_t next_ = 0, pending_ = 0;
};

} // namespace kc
