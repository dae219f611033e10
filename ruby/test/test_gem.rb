# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'
require 'rbconfig'

# The gem as users install it: `gem build` (with a copy of the library
# bundled into lib/libhiera/) and `gem install --local` into an empty
# GEM_HOME, with Debian's ruby-ffi satisfying the ffi dependency. Loaded
# without LIBHIERA_PATH it uses the bundled copy; LIBHIERA_PATH still wins.
class TestGem < Minitest::Test
  GEM = File.expand_path('..', __dir__)

  def test_gem_build_install_and_the_bundled_library
    skip 'gem build and install are tested with MRI' unless RUBY_ENGINE == 'ruby'
    Dir.mktmpdir do |tmp|
      src = File.join(tmp, 'src')
      FileUtils.cp_r(GEM, src)
      FileUtils.rm_rf(File.join(src, 'test'))
      FileUtils.cp(Libhiera.library_path, File.join(src, 'lib', 'libhiera', 'libhiera.so'))
      out, st = Open3.capture2e('gem', 'build', 'libhiera.gemspec', chdir: src)
      assert st.success?, out
      gem = File.join(src, "libhiera-#{Libhiera::VERSION}.gem")
      home = File.join(tmp, 'home')
      env = { 'GEM_HOME' => home, 'GEM_PATH' => ([home] + Gem.path).join(File::PATH_SEPARATOR), 'LIBHIERA_PATH' => nil,
              'RUBYLIB' => nil, 'RUBYOPT' => nil }
      out, st = Open3.capture2e(env, 'gem', 'install', '--local', '--no-document', gem)
      assert st.success?, out
      code = 'require "libhiera"; print Libhiera.library_path, " ", Libhiera::Hiera3.name' \
             ' if require "libhiera/hiera3"'
      out, st = Open3.capture2e(env, RbConfig.ruby, '-e', code, chdir: tmp)
      assert st.success?, out
      installed = Dir.glob(File.join(home, 'gems', "libhiera-#{Libhiera::VERSION}", 'lib', 'libhiera', 'libhiera.so')).first
      assert installed, 'the library is in the installed gem'
      assert_equal "#{installed} Libhiera::Hiera3", out
      out, st = Open3.capture2e(env.merge('LIBHIERA_PATH' => Libhiera.library_path), RbConfig.ruby, '-e',
                                'require "libhiera"; print Libhiera.library_path', chdir: tmp)
      assert st.success?, out
      assert_equal Libhiera.library_path, out
    end
  end
end
