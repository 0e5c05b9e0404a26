# Cross-compile Chariot for 64-bit Windows with MinGW-w64 (Debian:
# g++-mingw-w64-x86-64-posix, the posix thread model that std::thread needs):
#
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
#   cmake --build build-windows        # build-windows/chariot.exe and chariot.book
#
# or simply `scripts/build.sh windows`. The top-level CMakeLists.txt links the
# .exe statically (no MinGW DLLs needed) and uses fmt header-only
# (CHARIOT_FMT_HEADER_ONLY, on by default when cross-compiling). If wine is
# installed it is the emulator that builds the opening book (and could run the
# tests); without it pass -DCHARIOT_BOOK_BUILDER=<a native chariot>.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(CHARIOT_MINGW_PREFIX x86_64-w64-mingw32)
find_program(CMAKE_CXX_COMPILER NAMES ${CHARIOT_MINGW_PREFIX}-g++-posix ${CHARIOT_MINGW_PREFIX}-g++ REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${CHARIOT_MINGW_PREFIX}-windres)

# Headers and libraries of the target only; programs from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${CHARIOT_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(CHARIOT_WINE NAMES wine wine64)
if(CHARIOT_WINE)
  # WINEDEBUG=-all: no fixme: chatter in the build log.
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_COMMAND} -E env WINEDEBUG=-all ${CHARIOT_WINE})
endif()
