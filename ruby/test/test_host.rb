# frozen_string_literal: true

require_relative 'test_helper'

# Libhiera::Hiera.new(host:): hierarchy functions libhiera does not have,
# run by a Ruby object from inside the lookup (MRI and JRuby: Puppet Server
# runs the hand-off's host on JRuby).
class TestHost < Minitest::Test
  HIERA_YAML = "version: 5\nhierarchy:\n  - name: fn\n    lookup_key: my::fn\n    options: {o: 1}\n" \
               "  - name: hash\n    data_hash: my::hash\n    path: common.yaml\n  - name: plain\n    path: plain.yaml\n"

  class Recorder
    attr_reader :calls, :warnings, :objects
    attr_accessor :session

    def initialize
      @calls = []
      @warnings = []
      @objects = []
    end

    def call(call)
      @calls << call
      return { 'from_hash' => 'v %{facts.x}', 'alias' => "%{alias('from_fn')}" } if call['kind'] == 'data_hash'

      case call['key']
      when 'from_fn' then [1, 2]
      when 'object' then Struct.new(:a).new(1)
      when 'nested' then @session.lookup('from_hash')
      when 'failing' then raise KeyError, 'the vault is sealed'
      else Libhiera::NOT_FOUND
      end
    end

    def warn(warning)
      @warnings << warning
    end
  end

  def with_host
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'hiera.yaml'), HIERA_YAML)
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'data', 'common.yaml'), '')
      File.write(File.join(dir, 'data', 'plain.yaml'), "undef: \"x%{nosuch}y\"\n")
      host = Recorder.new
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir, host: host)
      session = hiera.session({ 'facts' => { 'x' => 5 } })
      session.objects = host.objects
      host.session = session
      yield session, host
    end
  end

  def test_functions_run_inside_the_lookup
    with_host do |s, host|
      assert_equal [1, 2], s.lookup('from_fn')
      assert_equal 'v 5', s.lookup('from_hash')
      assert_equal [1, 2], s.lookup('alias')
      assert_equal 'v 5', s.lookup('nested')
      assert_same Libhiera::NOT_FOUND, s.lookup('missing')
      call = host.calls.find { |c| c['key'] == 'from_fn' }
      assert_equal({ 'kind' => 'lookup_key', 'function' => 'my::fn', 'layer' => 'global', 'entry' => 'fn', 'index' => 0,
                     'default_hierarchy' => false, 'options' => { 'o' => 1 }, 'key' => 'from_fn' }, call)
      assert_equal 1, host.calls.count { |c| c['kind'] == 'data_hash' }, 'a data_hash location is read once per session'
    end
  end

  def test_the_hosts_exception_and_objects_come_back_as_they_are
    with_host do |s, host|
      e = assert_raises(KeyError) { s.lookup('failing') }
      assert_equal 'the vault is sealed', e.message
      obj = s.lookup('object')
      assert_same host.objects.first, obj
      assert_equal 1, obj.a
    end
  end

  def test_warnings_reach_the_host
    with_host do |s, host|
      assert_equal 'xy', s.lookup('undef')
      assert_equal [{ 'message' => "Undefined variable 'nosuch'; ", 'kind' => 'undefined_variables', 'key' => 'Variable: nosuch' }],
                   host.warnings
    end
  end
end
