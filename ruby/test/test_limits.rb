# frozen_string_literal: true

require_relative 'test_helper'

# The kinds and statuses are include/hiera.h's, and a hostile control repo
# ends in a LimitError, also on a thread with a small stack.
class TestLimits < Minitest::Test
  include TestSupport

  HEADER = File.read(File.expand_path('../../include/hiera.h', __dir__))

  def test_error_kinds_are_the_headers
    start = HEADER.index(' * Error kinds (')
    refute_nil start, 'include/hiera.h has an Error kinds section'
    section = HEADER[start..].lines.drop(2).take_while { |l| l.strip != '*' }
    kinds = section.map { |l| l[/\A \*   (\w+)/, 1] }.compact
    assert_equal kinds, Libhiera::ERROR_KINDS.keys
  end

  def test_statuses_are_the_headers
    statuses = HEADER.scan(/^  HIERA_([A-Z_]+) = (\d+),$/).to_h { |name, n| [name, Integer(n)] }
    assert_equal 6, statuses.size
    statuses.each { |name, n| assert_equal n, Libhiera::Native.const_get(name), name }
  end

  def chain_repo
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
      data = (0...10_000).map { |i| "k#{i}: \"%{lookup('k#{i + 1}')}\"\n" }.join
      data += "k10000: end\n"
      data += (0...9).map { |i| "b#{i}: \"#{"%{lookup('b#{i + 1}')}" * 9}\"\n" }.join + "b9: #{'x' * 60}\n"
      File.write(File.join(dir, 'data', 'common.yaml'), data)
      yield dir
    end
  end

  def assert_limit(session, key, limit)
    e = assert_raises(Libhiera::LimitError) { session.lookup(key) }
    assert_equal 'limit', e.kind
    assert_includes e.message, "(limit #{limit} = "
    assert_includes e.message, 'common.yaml'
  end

  def test_hostile_repos_end_in_a_limit_error
    chain_repo do |dir|
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: File.join(dir, 'environments'))
      session = hiera.session({})
      assert_limit(session, 'k0', 'lookup_depth')
      assert_limit(session, 'b0', 'string_bytes')
      assert_equal 'end', session.lookup('k9990')
      # On a Ruby thread with a small VM and machine stack, too.
      t = Thread.new { [hiera.session({}).lookup('k9990'), (begin; hiera.session({}).lookup('k0'); rescue Libhiera::LimitError => e; e.kind; end)] }
      assert_equal ['end', 'limit'], t.value
      # In a Fiber (a stack of its own, beside the thread's) nested lookups work.
      assert_equal 'end', Fiber.new { hiera.session({}).lookup('k9990') }.resume
      small = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: File.join(dir, 'environments'),
                                  limits: { lookup_depth: 3, string_bytes: 100 })
      assert_limit(small.session({}), 'k9990', 'lookup_depth')
      assert_limit(small.session({}), 'b8', 'string_bytes')
      e = assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new(limits: { stack: 1 }) }
      assert_includes e.message, "unknown limit 'stack'"
    end
  end

  # Hiera 3 accelerated: each `%{hiera('k')}` of a 10,000-key chain calls back
  # into Ruby's Backend.lookup, which calls the library again, so host
  # callbacks nest thousands deep. It ends as the gem itself ends (Ruby's
  # SystemStackError, the JVM's StackOverflowError) or in a limit error, on a
  # Ruby thread, and the process goes on answering.
  def test_host_callbacks_at_depth_end_cleanly
    require 'hiera'
    require 'libhiera/hiera3'
    Libhiera::Hiera3.accelerate!
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'hiera.yaml'),
                 ":backends:\n  - yaml\n:yaml:\n  :datadir: #{dir}/data\n:hierarchy:\n  - common\n:logger: noop\n")
      data = (0...10_000).map { |i| "k#{i}: \"%{hiera('k#{i + 1}')}\"\n" }.join + "k10000: end\n"
      File.write(File.join(dir, 'data', 'common.yaml'), data)
      hiera = ::Hiera.new(config: File.join(dir, 'hiera.yaml'))
      # A short chain first (10 nested callbacks), so that every method on
      # the deep chain's path has run once: JRuby builds a method's
      # interpreter state on its first call, and a stack overflow during that
      # build leaves the method broken for the rest of the process (a
      # NullPointerException on `interpreterContext` at every later call,
      # JRuby's own state, about one run in three on a loaded host).
      assert_equal 'end', hiera.lookup('k9990', nil, {})
      outcome = Thread.new do
        hiera.lookup('k0', nil, {})
      rescue Exception => e # rubocop:disable Lint/RescueException -- the JVM's StackOverflowError is not a StandardError
        e
      end.value
      # On JRuby the overflow may surface where the JVM wraps it (a
      # RuntimeException from the FFI callback's frame whose message, or
      # cause, is the java.lang.StackOverflowError): still the JVM's own
      # end of a too-deep stack, on this thread.
      ended = [outcome.class.name]
      ended << outcome.message.to_s if outcome.respond_to?(:message)
      ended << outcome.cause.class.name if outcome.respond_to?(:cause)
      assert(ended.any? { |text| text =~ /SystemStackError|StackOverflowError|LimitError/ },
             "ended with #{outcome.inspect[0, 300]}")
      assert_equal 'end', hiera.lookup('k9990', nil, {})
    end
  ensure
    # A stack overflow can land in the `ensure` of the gem's own
    # `Backend.interpolate_config` (every datadir goes through it), which
    # then leaves its `@config_lookup_context` set: later lookups in this
    # process would share that stale recursion guard (on JRuby about one
    # run in six). That is the gem's state, not libhiera's: clear it so
    # the tests after this one start from a clean gem.
    ::Hiera::Backend.instance_variable_set(:@config_lookup_context, nil) if defined?(::Hiera::Backend)
  end

  # `file_check_interval`: an hour's trust answers a new session from the
  # file as it was; the default sees the change at the next session,
  # watched or not (`watch_files: false`).
  def test_file_check_interval
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
      File.write(File.join(dir, 'data', 'common.yaml'), "k: first\n")
      open = lambda { |interval, watch = true|
        Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), file_check_interval: interval,
                            watch_files: watch)
      }
      trusting = open.call(3600)
      checking = open.call(nil)
      stating = open.call(nil, false)
      assert_equal %w[first first first],
                   [trusting.session({}).lookup('k'), checking.session({}).lookup('k'), stating.session({}).lookup('k')]
      # Another size: the change shows in the stamp whatever the
      # filesystem's time granularity.
      File.write(File.join(dir, 'data', 'common.yaml'), "k: second version\n")
      assert_equal 'first', trusting.session({}).lookup('k')
      assert_equal 'second version', checking.session({}).lookup('k')
      assert_equal 'second version', stating.session({}).lookup('k')
      e = assert_raises(Libhiera::InvalidArgumentError) { open.call(-1) }
      assert_includes e.message, 'file_check_interval'
    end
  end

  # The file watcher is the process's: a forked child makes its own (the
  # queue it inherits is the parent's to read), and each process's next
  # session sees a change made after the fork. MRI only (JRuby cannot fork).
  def test_file_watch_across_fork
    skip 'no fork here' unless Process.respond_to?(:fork) && RUBY_ENGINE == 'ruby'
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
      common = File.join(dir, 'data', 'common.yaml')
      File.write(common, "k: first\n")
      # Past the two seconds in which a changed file is read again anyway.
      sleep 2.1
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'))
      assert_equal 'first', hiera.session({}).lookup('k')
      reader, writer = IO.pipe
      pid = fork do
        reader.close
        answers = [hiera.session({}).lookup('k')]
        File.write(common, "k: from the child\n")
        answers << hiera.session({}).lookup('k')
        writer.write(answers.join('|'))
        writer.close
        exit!(0)
      end
      writer.close
      child = reader.read
      Process.wait(pid)
      assert_equal 'first|from the child', child
      # The child read its own queue: the parent's still holds the change.
      assert_equal 'from the child', hiera.session({}).lookup('k')
      File.write(common, "k: from the parent again\n")
      assert_equal 'from the parent again', hiera.session({}).lookup('k')
    end
  end

  def test_confine
    Dir.mktmpdir do |root|
      dir = File.join(root, 'repo')
      FileUtils.mkdir_p(File.join(dir, 'data'))
      File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: node\n    path: \"%{facts.p}.yaml\"\n")
      File.write(File.join(root, 'secret.yaml'), "k: secret\n")
      scope = { 'facts' => { 'p' => '../../secret' } }
      open = ->(confine) { Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), confine: confine).session(scope) }
      assert_equal 'secret', open.call(false).lookup('k')
      e = assert_raises(Libhiera::FileError) { open.call(true).lookup('k') }
      assert_includes e.message, 'outside the directories'
    end
  end
end
