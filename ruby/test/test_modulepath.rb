# frozen_string_literal: true

require_relative 'test_helper'
require 'pathname'

# Libhiera::Hiera.new(basemodulepath:, modulepath:), on a recorded case with
# two base directories that both hold a module gamma.
class TestModulepath < Minitest::Test
  include TestSupport

  CASE = File.join(CONFORMANCE, 'modulepath', 'two_base_directories')

  def lookup(key, **options)
    hiera = Libhiera::Hiera.new(hiera_config: File.join(CASE, 'hiera.yaml'),
                                environmentpath: File.join(CASE, 'environments'), **options)
    hiera.session({}).lookup(key)
  end

  def base(name)
    File.join(CASE, name)
  end

  def test_no_base_directories_by_default
    assert_same Libhiera::NOT_FOUND, lookup('alpha::where')
  end

  def test_basemodulepath_in_order
    assert_equal 'base2', lookup('beta::where', basemodulepath: [base('base1'), base('base2')])
    assert_equal 'base1', lookup('gamma::where', basemodulepath: [base('base1'), base('base2')])
    assert_equal 'base2', lookup('gamma::where', basemodulepath: [Pathname.new(base('base2')), base('base1')])
  end

  def test_relative_directories_are_from_the_working_directory
    Dir.chdir(CASE) { assert_equal 'base1', lookup('alpha::where', basemodulepath: %w[base1]) }
  end

  def test_modulepath_is_the_whole_list
    assert_equal 'base2', lookup('gamma::where', modulepath: [base('base2')], basemodulepath: [base('base1')])
    assert_same Libhiera::NOT_FOUND, lookup('alpha::where', modulepath: [base('base2')], basemodulepath: [base('base1')])
    assert_same Libhiera::NOT_FOUND, lookup('alpha::where', modulepath: [], basemodulepath: [base('base1')])
  end

  def test_bad_lists_and_environment_conf
    e = assert_raises(Libhiera::InvalidArgumentError) { lookup('x', basemodulepath: 'base1:base2') }
    assert_match(/basemodulepath must be an Array/, e.message)
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, 'environments', 'production'))
      File.write(File.join(dir, 'environments', 'production', 'environment.conf'), "modulepath = $codedir/modules\n")
      e = assert_raises(Libhiera::ConfigError) do
        Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: File.join(dir, 'environments'))
      end
      assert_includes e.message, 'Could not find value for $codedir'
    end
  end
end
