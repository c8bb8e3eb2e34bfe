#pragma once
// Move-only owners of GL objects. Each must be destroyed while its context is current, so owners
// are members of objects that the context outlives.
#include <glad/gl.h>

#include <utility>

namespace kc {

template <class Traits>
class GlObject {
public:
    GlObject() = default;
    static GlObject create() {
        GlObject o;
        o.id_ = Traits::create();
        return o;
    }
    GlObject(GlObject&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
    GlObject& operator=(GlObject&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, 0);
        }
        return *this;
    }
    GlObject(const GlObject&) = delete;
    GlObject& operator=(const GlObject&) = delete;
    ~GlObject() { reset(); }
    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }
    void reset() {
        if (id_) Traits::destroy(std::exchange(id_, 0));
    }

private:
    GLuint id_ = 0;
};

struct GlBufferTraits {
    static GLuint create() {
        GLuint id = 0;
        glGenBuffers(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct GlTextureTraits {
    static GLuint create() {
        GLuint id = 0;
        glGenTextures(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct GlVertexArrayTraits {
    static GLuint create() {
        GLuint id = 0;
        glGenVertexArrays(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct GlFramebufferTraits {
    static GLuint create() {
        GLuint id = 0;
        glGenFramebuffers(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct GlProgramTraits {
    static GLuint create() { return glCreateProgram(); }
    static void destroy(GLuint id) { glDeleteProgram(id); }
};
struct GlQueryTraits {
    static GLuint create() {
        GLuint id = 0;
        glGenQueries(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteQueries(1, &id); }
};

using GlBuffer = GlObject<GlBufferTraits>;
using GlTexture = GlObject<GlTextureTraits>;
using GlVertexArray = GlObject<GlVertexArrayTraits>;
using GlFramebuffer = GlObject<GlFramebufferTraits>;
using GlProgram = GlObject<GlProgramTraits>;
using GlQuery = GlObject<GlQueryTraits>;

} // namespace kc
