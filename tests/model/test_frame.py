import pytest

from graphframe import Frame


def test_type_defaults_to_string_none_and_equality_uses_it():
    assert Frame(name="a") == Frame({"name": "a", "type": "None"})
    assert Frame(name="a") != Frame(name="a", type="function")
    assert Frame({"name": "a"})["type"] == "None"


def test_keyword_arguments_override_the_dict_and_input_is_not_mutated():
    attrs = {"name": "a"}
    f = Frame(attrs, name="b")
    assert f["name"] == "b"
    assert attrs == {"name": "a"}  # Hatchet adds "type" to the caller's dict; we copy


def test_empty_frame_is_rejected():
    with pytest.raises(ValueError):
        Frame()


def test_str_quotes_every_value_and_sorts_keys():
    f = Frame(name="main", line=134, file="a.c")
    assert str(f) == "{'file': 'a.c', 'line': '134', 'name': 'main', 'type': 'None'}"
    assert repr(f) == "Frame({'file': 'a.c', 'line': '134', 'name': 'main', 'type': 'None'})"


def test_ordering_and_hash_follow_the_sorted_items():
    a, b = Frame(name="a"), Frame(name="b")
    assert a < b and b > a and a <= a and b >= a
    assert sorted([b, a]) == [a, b]
    assert hash(Frame(name="a")) == hash(Frame(name="a", type="None"))
    assert len({Frame(name="a"), Frame(name="a"), Frame(name="b")}) == 2
    # keys are compared before values: 'file' < 'name'
    assert Frame(file="z", line=1) < Frame(name="a")


def test_mixed_value_types_cannot_be_ordered_like_hatchet():
    with pytest.raises(TypeError):
        Frame(line=3) < Frame(line="10")


def test_values_get_copy_and_attrs_as_hatchet():
    f = Frame(name="a", line=3)
    assert f.values(["name", "line", "nope"]) == ("a", 3, None)
    assert f.values("name") == "a"
    assert f.get("nope", 7) == 7
    assert f.copy() == f and f.copy() is not f
    assert dict(f) == {"name": "a", "line": 3, "type": "None"}
    # attrs is the frame's own dict (Hatchet); the sorted pairs are taken at first use
    g = Frame(name="a")
    g.attrs["name"] = "x"
    assert g["name"] == "x" and g == Frame(name="x") and str(g) == "{'name': 'x', 'type': 'None'}"
    key = hash(g)
    g.attrs["name"] = "y"
    assert g["name"] == "y" and hash(g) == key and g == Frame(name="x")


def test_numpy_scalars_become_python_values():
    import numpy as np

    f = Frame(line=np.int64(3))
    assert type(f["line"]) is int
    assert repr(f) == "Frame({'line': '3', 'type': 'None'})"
