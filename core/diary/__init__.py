"""The diary picture (台帳): a day of rooms by hours, a week or a month of rooms by days.

``model`` holds the range asked for and what is read for it, ``layout`` places every hold as
a block (pure: no I/O, no words), ``draw`` turns a layout into PNG or PDF with the words the
caller passes in its reader's language (``words``). The Japanese font is a package's file
(``font``), loaded by path, so a fresh machine draws Japanese.
"""
