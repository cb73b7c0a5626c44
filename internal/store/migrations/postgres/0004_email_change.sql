-- E-mail change: the address a code of purpose email_change confirms; the
-- user's address becomes it when the code (or its link) is verified.

ALTER TABLE auth_one_time_codes ADD COLUMN new_email TEXT NOT NULL DEFAULT '';
