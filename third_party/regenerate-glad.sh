#!/bin/sh
# Regenerates third_party/glad from the Khronos specs that Debian's python3-glad ships
# (--reproducible: no download). GL 3.3 core for the app, EGL 1.5 + the device-platform
# extensions for headless rendering on a GPU server, texture storage for immutable textures,
# external memory (GL_EXT_memory_object*) so CUDA-allocated memory can back a GL texture.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/glad"
glad --reproducible --quiet --api gl:core=3.3,egl=1.5 \
  --extensions "GL_ARB_texture_storage,GL_KHR_debug,GL_EXT_memory_object,GL_EXT_memory_object_fd,GL_EXT_semaphore,GL_EXT_semaphore_fd,GL_ARB_copy_image,GL_ARB_texture_buffer_object,EGL_EXT_device_base,EGL_EXT_device_enumeration,EGL_EXT_device_query,EGL_EXT_platform_base,EGL_EXT_platform_device,EGL_NV_device_cuda,EGL_KHR_surfaceless_context,EGL_MESA_platform_surfaceless" \
  --out-path "$here/glad" c --loader
