Puppet::Functions.create_function(:'environment::data') do
  def data()
    {
      'env_key' => 'from environment::data',
      'role_msg' => 'role is %{facts.role}',
      'shared' => ['env'],
      'nested' => { 'a' => { 'b' => 1 }, 'c' => [1, 2] },
      'aliased' => '%{alias("nested")}',
      'via_lookup' => "global says %{lookup('global_key')}",
      'mymod::x' => 'env value for mymod::x',
      'lookup_options' => { 'shared' => { 'merge' => 'unique' }, 'deep' => { 'merge' => 'deep' } },
      'deep' => { 'env' => 1, 'both' => { 'from' => 'env' } },
      'nil_value' => nil,
    }
  end
end
