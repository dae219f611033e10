function incomplete::data() { { 'incomplete::a' => 'x' } }
