# Installing kcanvas like a desktop application (issue 14), included from CMakeLists.txt once the
# targets exist: --version's build facts, the data a build tree runs with, install rules (binary,
# data, menu entry, icons, man page) and the Debian package (CPack).
include(GNUInstallDirs)

# --- --version: version, git commit (refreshed every build), CUDA toolkit and architectures.
set(kc_cuda_version "")
set(kc_cuda_archs "")
if(KC_HAVE_CUDA)
  set(kc_cuda_version "${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR}")
  string(REPLACE ";" "," kc_cuda_archs "${CMAKE_CUDA_ARCHITECTURES}")
endif()
set(kc_build_info ${CMAKE_BINARY_DIR}/generated/kc_build_info.h)
add_custom_target(kc_build_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUT=${kc_build_info} -DVERSION=${PROJECT_VERSION}
          -DCUDA_VERSION=${kc_cuda_version} "-DCUDA_ARCHS=${kc_cuda_archs}" -P ${PROJECT_SOURCE_DIR}/cmake/BuildInfo.cmake
  BYPRODUCTS ${kc_build_info}
  COMMENT "Reading the git commit for --version")
add_dependencies(kc_cli kc_build_info)
target_include_directories(kc_cli PRIVATE ${CMAKE_BINARY_DIR}/generated) # cli/version.cpp

# --- The data kcanvas ships, as share/kcanvas holds it; copied beside the binary of a build tree
# too (build/share/kcanvas), which is where app/core/data_dir.cpp looks first.
set(kc_data_images ${PROJECT_SOURCE_DIR}/assets/logo.png ${PROJECT_SOURCE_DIR}/assets/rose.jpg)
file(GLOB kc_data_kernels CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/kernels/*.cu)
set(kc_build_data ${CMAKE_BINARY_DIR}/share/kcanvas)
set(kc_data_copies "")
foreach(kind images kernels)
  foreach(file ${kc_data_${kind}})
    get_filename_component(name ${file} NAME)
    add_custom_command(OUTPUT ${kc_build_data}/${kind}/${name}
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${file} ${kc_build_data}/${kind}/${name}
      DEPENDS ${file})
    list(APPEND kc_data_copies ${kc_build_data}/${kind}/${name})
  endforeach()
endforeach()
add_custom_target(kc_build_data ALL DEPENDS ${kc_data_copies} COMMENT "Copying the data into the build tree")
add_dependencies(kcanvas kc_build_data)

# --- Install rules: cmake --install build --prefix PREFIX.
install(TARGETS kcanvas kcanvas-kernel-host RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${kc_data_images} DESTINATION ${CMAKE_INSTALL_DATADIR}/kcanvas/images)
install(FILES ${kc_data_kernels} DESTINATION ${CMAKE_INSTALL_DATADIR}/kcanvas/kernels)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/kcanvas.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
foreach(size 16 22 24 32 48 64 128 256) # made by scripts/make-icons.sh from assets/logo.png
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/kcanvas-${size}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME kcanvas.png)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man page, from --help by help2man (Debian's help2man), gzipped as Debian's policy asks.
find_program(KC_HELP2MAN help2man)
find_program(KC_GZIP gzip)
if(KC_HELP2MAN AND KC_GZIP)
  set(kc_man ${CMAKE_BINARY_DIR}/kcanvas.1)
  add_custom_command(OUTPUT ${kc_man}.gz
    COMMAND ${KC_HELP2MAN} --locale=C.UTF-8 --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
            "--name=CUDA kernels paint an OpenGL canvas live" --section=1 --output=${kc_man} $<TARGET_FILE:kcanvas>
    COMMAND ${KC_GZIP} -9nf ${kc_man}
    DEPENDS kcanvas
    COMMENT "Writing the man page from kcanvas --help (help2man)")
  add_custom_target(kc_man ALL DEPENDS ${kc_man}.gz)
  install(FILES ${kc_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "kcanvas: no help2man: the man page is not built or installed")
endif()

# --- The Debian package: cpack -G DEB in the build folder (scripts/package.sh).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kcanvas)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Kernel Canvas maintainers <kcanvas@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA kernels paint an OpenGL canvas live: a GPU indexing playground")
set(CPACK_PACKAGE_DESCRIPTION
    "Kernel Canvas shows CUDA kernels painting pixels into an OpenGL texture every frame, with a Dear ImGui\n"
    "panel for the operation, the block and grid, the thread-to-pixel mapping and live GPU timings. Views\n"
    "colour each pixel by the block, thread, warp or lane that wrote it; your own kernels compile live\n"
    "with NVRTC. Without a GPU it runs a CPU emulator of the same launches.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # kcanvas_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Libraries it links come from dpkg-shlibdeps (ldd + dpkg -S, with versions); those it opens at
# run time are named here: the GL and EGL loaders (glvnd).
find_program(KC_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(KC_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgl1, libegl1")
else() # without dpkg-dev: what ldd build/kcanvas and dpkg -S named on Debian 12
  message(STATUS "kcanvas: no dpkg-shlibdeps (dpkg-dev): the .deb names Debian 12's libraries by hand")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libstdc++6, libgcc-s1, libglfw3, libfmt9, libpng16-16, libjpeg62-turbo, libstb0, libgl1, libegl1, libseccomp2")
endif()
# g++: your kernel on the CPU backend is compiled by the system's C++ compiler (cpukernel/).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, xdg-user-dirs, g++")
if(KC_HAVE_CUDA)
  # The CUDA runtime is linked statically; the driver and NVRTC (live kernels) are opened at run
  # time, and kcanvas says what is missing without them. NVIDIA's repository names the packages.
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
      "cuda-nvrtc-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}, cuda-drivers | nvidia-driver")
endif()
include(CPack)
