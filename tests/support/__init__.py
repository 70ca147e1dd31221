"""What the test modules share, by concern (in the manner of pre-commit's ``testing/``
package): fixtures live in conftest.py; a test module imports plain helpers from here, never from
another test module, so each helper has one definition."""
