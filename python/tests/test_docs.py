"""The examples in the docstrings run and print what they say."""

import doctest

import pytest

import lightsout

PUBLIC = ["solve", "solve_many", "check", "analyze", "nullity_table", "hardest", "Solution", "Check", "Analysis", "Hardest"]


@pytest.mark.parametrize("name", ["lightsout"] + PUBLIC)
def test_docstring_examples(name):
    target = lightsout if name == "lightsout" else getattr(lightsout, name)
    if name == "lightsout":
        target = lightsout.lightsout  # the extension module carries the module docstring
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(target, name, globs={"lightsout": lightsout})
    examples = sum(len(t.examples) for t in tests)
    assert examples > 0, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_every_public_name_has_a_docstring_and_a_type_hint():
    import pathlib

    stub = (pathlib.Path(__file__).resolve().parents[1] / "lightsout.pyi").read_text()
    for name in PUBLIC + ["LimitError"]:
        assert getattr(lightsout, name).__doc__, name
        assert f"def {name}(" in stub or f"class {name}" in stub, name


def test_the_tutorial_in_docs_python_md():
    # The ```python blocks of docs/python.md, run as one doctest session
    # (the 61x61 minimum, a minute of search, is marked to skip).
    import pathlib
    import re

    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert len(blocks) >= 4
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "docs/python.md", "docs/python.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0
