# frozen_string_literal: true

require_relative 'test_helper'
require 'libhiera/hiera3'

# The public conformance cases (tests/conformance/**, recorded from Puppet
# 7.23 and hiera 3.10) and the example control repo, through the Ruby API,
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

  def test_hiera5_cases_through_libhiera_hiera
    list = cases('hiera5', [CONFORMANCE, EXAMPLES])
    assert_operator list.size, :>, 80
    queries = 0
    failures = []
    diffs = []
    list.each do |dir, kase, expected|
      scope = Libhiera::Wire.decode(expected['scope'])
      kase['queries'].each_with_index do |q, i|
        queries += 1
        got = outcome do
          # A fresh configuration and session per query: the recorder's
          # query isolation.
          hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'),
                                      environmentpath: File.join(dir, 'environments'),
                                      environment: kase['environment'] || 'production')
          options = {}
          options[:merge] = q['merge'] if q.key?('merge')
          options[:default] = q['default'] if q.key?('default')
          hiera.session(scope).lookup(q['key'], **options)
        end
        got['error'] = relative(got['error'], dir) if got['error']
        check("#{dir.delete_prefix("#{ROOT}/")} ##{i} #{q['key']}", recorded(expected['results'][i]), got, failures, diffs)
      end
    end
    report('hiera5 through Libhiera::Hiera', queries, failures, diffs)
  end

  def test_hiera3_cases_through_libhiera_hiera3
    list = cases('hiera3')
    assert_operator list.size, :>, 20
    queries = 0
    failures = []
    diffs = []
    list.each do |dir, kase, expected|
      scope = Libhiera::Wire.decode(expected['scope'])
      kase['queries'].each_with_index do |q, i|
        queries += 1
        got = outcome do
          hiera = Libhiera::Hiera3.new(config: 'hiera.yaml', cwd: dir)
          default = q.key?('default') ? q['default'] : NOT_FOUND
          hiera.lookup(q['key'], default, scope, q['order_override'], resolution_type(q['resolution_type']))
        end
        got['error'] = relative(got['error'], dir) if got['error']
        check("#{dir.delete_prefix("#{ROOT}/")} ##{i} #{q['key']}", recorded(expected['results'][i]), got, failures, diffs)
      end
    end
    report('hiera3 through Libhiera::Hiera3', queries, failures, diffs)
  end
end
