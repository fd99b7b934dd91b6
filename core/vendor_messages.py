"""The DRF and Django messages our API answers can carry, declared so that `manage.py i18n make`
puts them in OUR catalog: DRF ships no Hebrew, Nepali or Hindi catalog worth the name, and ours
(LOCALE_PATHS) is read before any package's, so these are what a client reads in its language.

Each is exactly its package's English (the msgid it translates at run time). DRF's `{name}`
placeholders are `str.format` ones, filled after translation: a translation keeps them as they
are. tests/core/test_vendor_messages.py walks DRF's classes and fails when one of their
messages is missing here (a DRF upgrade that adds or rewords one), so copy it in as printed.

Nothing imports this module; the catalog builder reads it.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

DRF_MESSAGES: tuple[str, ...] = (
    # DRF's fields (`default_error_messages` of every field class).
    gettext_noop("A valid biginteger is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop('"{input}" is not a valid choice.'),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a date but got a datetime."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a datetime but got a date."),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Datetime value out of range."),
    gettext_noop("A valid number is required."),
    gettext_noop("Ensure that there are no more than {max_digits} digits in total."),
    gettext_noop("Ensure that there are no more than {max_decimal_places} decimal places."),
    gettext_noop(
        "Ensure that there are no more than {max_whole_digits} digits before the decimal point."
    ),
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Duration has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("The number of days must be between {min_days} and {max_days}."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted data was not a file. Check the encoding type on the form."),
    gettext_noop("No filename could be determined."),
    gettext_noop("The submitted file is empty."),
    gettext_noop("Ensure this filename has at most {max_length} characters (it has {length})."),
    gettext_noop('"{input}" is not a valid path choice.'),
    gettext_noop("Integer value too large to convert to float"),
    gettext_noop("Enter a valid IPv4 or IPv6 address."),
    gettext_noop(
        "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
    ),
    gettext_noop("A valid integer is required."),
    gettext_noop("Value must be valid JSON."),
    gettext_noop('Expected a list of items but got type "{input_type}".'),
    gettext_noop("This list may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("This selection may not be empty."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    gettext_noop(
        'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'
    ),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Must be a valid UUID."),
    # DRF's serializers.
    gettext_noop("Invalid data. Expected a dictionary, but got {datatype}."),
    # DRF's related fields.
    gettext_noop("Invalid hyperlink - No URL match."),
    gettext_noop("Invalid hyperlink - Incorrect URL match."),
    gettext_noop("Invalid hyperlink - Object does not exist."),
    gettext_noop("Incorrect type. Expected URL string, received {data_type}."),
    gettext_noop('Invalid pk "{pk_value}" - object does not exist.'),
    gettext_noop("Incorrect type. Expected pk value, received {data_type}."),
    gettext_noop("Object with {slug_name}={value} does not exist."),
    gettext_noop("Invalid value."),
    # DRF's exceptions (`default_detail`).
    gettext_noop("A server error occurred."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("Not found."),
    gettext_noop("Malformed request."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Request was throttled."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("Invalid input."),
    # DRF's authentication classes.
    gettext_noop("Invalid basic header. No credentials provided."),
    gettext_noop("Invalid token header. No credentials provided."),
    gettext_noop("Invalid basic header. Credentials string should not contain spaces."),
    gettext_noop("Invalid basic header. Credentials not correctly base64 encoded."),
    gettext_noop("Invalid username/password."),
    gettext_noop("User inactive or deleted."),
    gettext_noop("Invalid token header. Token string should not contain spaces."),
    gettext_noop("Invalid token header. Token string should not contain invalid characters."),
    gettext_noop("Invalid token."),
    # DRF's paginators.
    gettext_noop("Invalid page."),
    gettext_noop("Invalid cursor"),
    # DRF's validators that every CharField runs.
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
)

DJANGO_MESSAGES: tuple[str, ...] = (
    # Django's validators that DRF's fields run (a CharField refuses a NUL character) or that
    # a field with a plain `RegexValidator` raises.
    gettext_noop("Null characters are not allowed."),
    gettext_noop("Enter a valid value."),
    # Django's password validators (AUTH_PASSWORD_VALIDATORS: 400 `invalid_password`, whose
    # `detail` joins them and `reasons` lists them).
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
)

# The one plural among them (never evaluated: lazy, for the catalog only).
PASSWORD_TOO_SHORT = ngettext_lazy(
    "This password is too short. It must contain at least %d character.",
    "This password is too short. It must contain at least %d characters.",
    8,
)
