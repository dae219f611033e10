function fn_pp::data() {
  {
    'fn_pp::a' => 'a for %{facts.role}',
    'fn_pp::list' => ['from fn_pp'],
    'fn_pp::nested' => { 'k' => [1, 2] },
    'fn_pp::env' => "%{lookup('env_key')}",
    'not_mine' => 'dropped',
    'lookup_options' => { 'fn_pp::list' => { 'merge' => 'unique' } },
  }
}
