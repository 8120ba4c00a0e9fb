# Conan 2 recipe for libastar, kept in the project (docs/packaging.md, "Conan").
#
#   conan create ports/conan                          # the library (static)
#   conan create ports/conan -o "libastar/*:shared=True" -o "libastar/*:tool=True"
#
# The sources are this checkout (export_sources copies them), the version is
# include/astar/base.h's ASTAR_VERSION_STRING (set_version), so the recipe
# never names a version of its own. tests/ports/check.sh builds what this
# recipe's generate() asks of CMake; it does not run Conan.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir
from conan.tools.microsoft import is_msvc

required_conan_version = ">=2.0"

# The checkout this recipe lives in: ports/conan/../..
_ROOT = os.path.join("..", "..")
# What a build needs from the checkout (no tests, examples, Python or web).
_SOURCES = ("CMakeLists.txt", "LICENSE", "astar.pc.in", "cmake/*", "include/*", "src/*",
            "tools/*")


class LibastarConan(ConanFile):
    name = "libastar"
    description = ("A* and friends for grid pathfinding in C11: JPS, JPS+, HPA*, CPD, "
                   "Theta*, hex grids, graphs, terrain costs.")
    license = "MIT"
    topics = ("pathfinding", "astar", "jps", "grid", "games")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {
        "shared": [True, False],
        "fPIC": [True, False],
        "tool": [True, False],
        "mpi": [True, False],
    }
    default_options = {
        "shared": False,
        "fPIC": True,
        "tool": False,
        "mpi": False,
    }

    def set_version(self):
        base_h = load(self, os.path.join(self.recipe_folder, _ROOT, "include", "astar", "base.h"))
        match = re.search(r'^#define ASTAR_VERSION_STRING "([0-9]+\.[0-9]+\.[0-9]+)"', base_h,
                          re.MULTILINE)
        if not match:
            raise ConanInvalidConfiguration("include/astar/base.h: no ASTAR_VERSION_STRING")
        self.version = match.group(1)

    def export_sources(self):
        root = os.path.join(self.recipe_folder, _ROOT)
        for pattern in _SOURCES:
            copy(self, pattern, src=root, dst=self.export_sources_folder)

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")
        # A C library: the C++ settings do not change the binary.
        self.settings.rm_safe("compiler.libcxx")
        self.settings.rm_safe("compiler.cppstd")

    def layout(self):
        cmake_layout(self, src_folder=".")

    def requirements(self):
        # Only the tool links them; the library needs neither.
        if self.options.tool:
            self.requires("libpng/[>=1.6 <2]")
            self.requires("cjson/[>=1.7 <2]")
        if self.options.mpi:
            self.requires("openmpi/[>=4.1 <6]")

    def validate(self):
        if self.options.mpi and not self.options.tool:
            raise ConanInvalidConfiguration(
                "libastar/*:mpi=True builds the astar tool with MPI: it needs "
                "libastar/*:tool=True")
        # POSIX threads and GCC/Clang flags (CMakeLists.txt); MSVC is not supported.
        if is_msvc(self):
            raise ConanInvalidConfiguration("libastar does not build with MSVC (POSIX threads)")

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["ASTAR_BUILD_SHARED"] = bool(self.options.shared)
        tc.cache_variables["ASTAR_BUILD_STATIC"] = not self.options.shared
        tc.cache_variables["ASTAR_BUILD_TOOLS"] = bool(self.options.tool)
        tc.cache_variables["ASTAR_USE_MPI"] = bool(self.options.mpi)
        tc.cache_variables["ASTAR_BUILD_TESTS"] = False
        tc.cache_variables["ASTAR_BUILD_EXAMPLES"] = False
        tc.cache_variables["ASTAR_BUILD_BENCH"] = False
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", src=self.source_folder,
             dst=os.path.join(self.package_folder, "licenses"))
        cmake = CMake(self)
        cmake.install()
        # Conan writes its own CMake and pkg-config files from package_info().
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))
        rmdir(self, os.path.join(self.package_folder, "share"))

    def package_info(self):
        # The names the project's own package files export: find_package(astar),
        # astar::astar (cmake/astarConfig.cmake.in) and pkg-config astar (astar.pc.in).
        self.cpp_info.set_property("cmake_file_name", "astar")
        self.cpp_info.set_property("cmake_target_name", "astar::astar")
        kind = "shared" if self.options.shared else "static"
        self.cpp_info.set_property("cmake_target_aliases", [f"astar::astar_{kind}"])
        self.cpp_info.set_property("pkg_config_name", "astar")
        self.cpp_info.libs = ["astar"]
        if self.options.shared:
            # astar_shared's PUBLIC definition: dllimport on Windows (base.h).
            self.cpp_info.defines = ["ASTAR_SHARED"]
        if self.settings.os in ("Linux", "FreeBSD"):
            self.cpp_info.system_libs = ["m", "pthread"]
