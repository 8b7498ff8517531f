"""Static files of the browser client (a package only so that they ship with ludorum)."""
