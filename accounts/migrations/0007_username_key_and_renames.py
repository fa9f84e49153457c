# Usernames unique regardless of case in every alphabet, step 1 of 3: the key column (empty
# for now), the record of renames, and names that refuse invisible and bidi characters.

import django.contrib.auth.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import accounts.names


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_moderators_moderate_players"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=450, null=True, verbose_name="username key"),
        ),
        migrations.AlterField(
            model_name="user",
            name="username",
            field=models.CharField(
                error_messages={"unique": "A user with that username already exists."},
                help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
                max_length=150,
                unique=True,
                validators=[
                    django.contrib.auth.validators.UnicodeUsernameValidator(),
                    accounts.names.validate_name,
                ],
                verbose_name="username",
            ),
        ),
        migrations.AlterField(
            model_name="user",
            name="display_name",
            field=models.CharField(
                blank=True,
                help_text="Shown on your profile; optional.",
                max_length=40,
                validators=[accounts.names.validate_name],
                verbose_name="display name",
            ),
        ),
        migrations.CreateModel(
            name="UsernameRename",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("old_username", models.CharField(max_length=150, verbose_name="old username")),
                ("new_username", models.CharField(max_length=150, verbose_name="new username")),
                ("renamed_at", models.DateTimeField(verbose_name="renamed at")),
                ("told_at", models.DateTimeField(blank=True, null=True, verbose_name="owner told at")),
                (
                    "kept_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="kept by",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="renames",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "username rename",
                "verbose_name_plural": "username renames",
                "ordering": ["-renamed_at", "pk"],
            },
        ),
    ]
