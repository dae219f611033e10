# frozen_string_literal: true

require_relative 'test_helper'
require 'libhiera/hiera3'

# The public conformance cases (tests/conformance/**, recorded from Puppet
# 7.23 and hiera 3.10; tests/conformance-p8/**, recorded from OpenVox 8 and
# run with `puppet: 8`) and the example control repo, through the Ruby API,
# compared strictly with the recorded answers: values as wire JSON (types,
# key order), not found versus error. Error messages are compared too; a
# differing message is reported, and fails with LIBHIERA_STRICT_MESSAGES=1.
class TestConformance < Minitest::Test
  include TestSupport

  def check(label, want, got, failures, diffs)
    if want.key?('error')
      if got.key?('error')
        diffs << "#{label}:\n    expected: #{want['error']}\n    got:      #{got['error']}" unless want['error'] == got['error']
      else
        failures << "#{label}: expected error #{want['error'].inspect}, got #{got.inspect}"
      end
    elsif want != got.reject { |k, _| k == 'class' }
      failures << "#{label}: expected #{want.inspect}, got #{got.inspect}"
    end
  end

  def report(what, queries, failures, diffs)
    diffs.each { |d| warn "message differs: #{d}" } if ENV['VERBOSE']
    failures.each { |f| warn "FAIL #{f}" }
    warn format('%s: %d queries, %d failed, %d message differences', what, queries, failures.size, diffs.size)
    assert_empty failures
    assert_empty diffs if ENV['LIBHIERA_STRICT_MESSAGES'] == '1'
  end

  def relative(message, dir)
    message.gsub("#{dir}/", '').gsub(dir, '.')
  end

  # The functions a case's Puppet 4 `function` data providers call (its
  # host_functions.txt): Puppet ran them when it recorded the case; without
  # a host that runs them, libhiera fails those queries with Puppet's error
  # for a function it cannot find (test_puppet_handoff.rb runs them).
  def host_functions(dir)
    path = File.join(dir, 'host_functions.txt')
    File.exist?(path) ? File.read(path).split("\n").map(&:strip).reject(&:empty?) : []
  end

  # Runs every query of the `engine` cases under `roots` through the block
  # (dir, case, query, scope) and compares with the recorded results.
  def run_cases(what, engine, roots, at_least)
    list = cases(engine, roots)
    assert_operator list.size, :>, at_least
    queries = 0
    need_host = 0
    failures = []
    diffs = []
    list.each do |dir, kase, expected|
      scope = Libhiera::Wire.decode(expected['scope'])
      functions = host_functions(dir).map { |f| "Unable to find 'v4_data_hash' function named '#{f}'" }
      case_need_host = 0
      kase['queries'].each_with_index do |q, i|
        queries += 1
        got = outcome { yield dir, kase, q, scope }
        got['error'] = relative(got['error'], dir) if got['error']
        if functions.include?(got['error'])
          case_need_host += 1
          next
        end
        check("#{dir.delete_prefix("#{ROOT}/")} ##{i} #{q['key']}", recorded(expected['results'][i]), got, failures, diffs)
      end
      failures << "#{dir}: host_functions.txt names functions no query needed" if !functions.empty? && case_need_host.zero?
      need_host += case_need_host
    end
    warn "#{what}: #{need_host} queries need host functions (the hand-off runs them)"
    report(what, queries, failures, diffs)
  end

  # A query of a hiera5 case, with a fresh configuration and session: the
  # recorder's query isolation. `puppet`: the Puppet it was recorded from.
  def hiera5_lookup(dir, kase, q, scope, puppet: nil)
    hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'),
                                environmentpath: File.join(dir, 'environments'),
                                environment: kase['environment'] || 'production',
                                puppet: puppet, working_directory: dir, **settings(dir, kase))
    options = {}
    options[:merge] = q['merge'] if q.key?('merge')
    options[:default] = q['default'] if q.key?('default')
    hiera.session(scope).lookup(q['key'], **options)
  end

  def test_hiera5_cases_through_libhiera_hiera
    run_cases('hiera5 through Libhiera::Hiera', 'hiera5', [CONFORMANCE, EXAMPLES], 80) do |dir, kase, q, scope|
      hiera5_lookup(dir, kase, q, scope)
    end
  end

  def test_puppet8_cases_through_libhiera_hiera
    run_cases('hiera5 through Libhiera::Hiera, Puppet 8', 'hiera5', [CONFORMANCE_P8], 80) do |dir, kase, q, scope|
      hiera5_lookup(dir, kase, q, scope, puppet: 8)
    end
  end

  def test_hiera3_cases_through_libhiera_hiera3
    run_cases('hiera3 through Libhiera::Hiera3', 'hiera3', [CONFORMANCE], 20) do |dir, _kase, q, scope|
      hiera = Libhiera::Hiera3.new(config: 'hiera.yaml', cwd: dir)
      default = q.key?('default') ? q['default'] : NOT_FOUND
      hiera.lookup(q['key'], default, scope, q['order_override'], resolution_type(q['resolution_type']))
    end
  end
end
