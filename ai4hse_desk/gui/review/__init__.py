"""The Review view: a reviewer's queue, blind answers, the reveal and the verdict form."""
