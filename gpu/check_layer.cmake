# Fails the build when a source of the gpu layer includes a window, GL or UI header. kc_gpu links
# none of them, so glad and imgui already fail to compile here, but <GL/gl.h>, <GLFW/glfw3.h> and
# <EGL/egl.h> are system headers that would compile and tie the layer to a display.
#   cmake -DDIR=<gpu dir> -DSTAMP=<file written when clean> -P check_layer.cmake
file(GLOB_RECURSE sources "${DIR}/*.h" "${DIR}/*.cpp" "${DIR}/*.cu" "${DIR}/*.cuh")
set(found "")
foreach(source IN LISTS sources)
  file(STRINGS "${source}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](GL|GLES[0-9]*|GLFW|EGL|KHR|glad|GLES)/|^[ \t]*#[ \t]*include[ \t]*[<\"]imgui")
  foreach(hit IN LISTS hits)
    file(RELATIVE_PATH name "${DIR}/.." "${source}")
    string(APPEND found "\n  ${name}: ${hit}")
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "the gpu layer must not include window, GL or UI headers (they belong in render/ or app/):${found}")
endif()
file(WRITE "${STAMP}" "gpu layer includes checked\n")
