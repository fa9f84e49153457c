# Usernames unique regardless of case in every alphabet, step 3 of 3: the filled key becomes
# required and unique; it replaces the old Lower(username) constraint (ASCII-only on SQLite).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_rename_clashing_usernames"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=450, unique=True, verbose_name="username key"),
        ),
        migrations.RemoveConstraint(
            model_name="user",
            name="accounts_user_username_ci_unique",
        ),
    ]
