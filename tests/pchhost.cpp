// The translation unit the tests' precompiled headers are made in (tests/CMakeLists.txt):
// attn_test_pch_core and attn_test_pch_ui compile it with the headers every test reuses.
