"""Staff catalog upload: who may use it, what the form refuses, and the job run by a real worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings as SettingsWrapper

from catalog.importers.jobs import catalog_import_job_run
from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, CatalogImportJob, Printing
from games import registry
from tests.catalog.conftest import wait_until_finished

UPLOAD_URL = "/catalog-imports/"
GOOD_CSV = (
    "code,type,name_en,set,number,defence,cost\n"
    "demo-armor,armor,Demo Armor,mh-demo,1,3,2\n"
    'demo-mail,armor,"Demo Mail, Heavy",mh-demo,2,5,3\n'
)
BAD_CSV = (
    "code,type,name_en,set,number,defence,cost\n"
    "demo-armor,armor,Demo Armor,mh-demo,1,3,2\n"
    "demo-broken,armor,Demo Broken,mh-demo,2,-1,2\n"
    "demo-short,armor,Demo Short,mh-demo\n"
)


@pytest.fixture
def staff(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("curator", password="pw", is_staff=True)


@pytest.fixture
def player(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("player", password="pw")


@pytest.fixture
def staff_client(client: Client, staff: User) -> Client:
    client.force_login(staff)
    return client


@pytest.fixture
def mh_set() -> CardSet:
    return CardSet.objects.create(
        game=game_sync("monster-hunter"), code="mh-demo", name_en="Demo set"
    )


def csv_file(text: str, name: str = "armor.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/csv")


def make_job(**fields: Any) -> CatalogImportJob:
    values: dict[str, Any] = {"file_name": "armor.csv", "content": GOOD_CSV, "game": ""}
    return CatalogImportJob.objects.create(**(values | fields))


def status_url(job: CatalogImportJob) -> str:
    return reverse("catalog:upload-status", args=[job.pk])


# --- who may upload ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_the_login_page(client: Client) -> None:
    job = make_job()
    for url in (UPLOAD_URL, status_url(job)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
    response = client.post(UPLOAD_URL, {"file": csv_file(GOOD_CSV)})
    assert response.status_code == 302
    assert CatalogImportJob.objects.count() == 1


@pytest.mark.django_db
def test_a_player_who_is_not_staff_cannot_upload_or_watch(client: Client, player: User) -> None:
    job = make_job()
    client.force_login(player)
    for url in (UPLOAD_URL, status_url(job)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
    client.post(UPLOAD_URL, {"file": csv_file(GOOD_CSV)})
    assert CatalogImportJob.objects.count() == 1


@pytest.mark.django_db
def test_the_upload_form_needs_a_csrf_token(staff: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    response = client.post(UPLOAD_URL, {"file": csv_file(GOOD_CSV)})
    assert response.status_code == 403
    assert not CatalogImportJob.objects.exists()


@pytest.mark.django_db
def test_staff_see_the_form_with_every_game(staff_client: Client) -> None:
    response = staff_client.get(UPLOAD_URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'enctype="multipart/form-data"' in body
    for slug in registry.slugs():
        assert f'value="{slug}"' in body


# --- what the form refuses --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("upload", "game", "field", "reason"),
    [
        (None, "", "file", "This field is required."),
        (csv_file("", "empty.csv"), "", "file", "The submitted file is empty."),
        (csv_file(" \n\n", "blank.csv"), "", "file", "The file is empty."),
        (csv_file(GOOD_CSV, "armor.txt"), "", "file", "Upload a .csv or .json file."),
        (
            SimpleUploadedFile("latin1.csv", "code,type\ncafé,x\n".encode("latin-1")),
            "",
            "file",
            "The file is not UTF-8 text (byte 13).",
        ),
        (csv_file(GOOD_CSV), "chess", "game", "Select a valid choice."),
    ],
)
def test_bad_input_answers_400_with_the_field_and_the_reason(
    staff_client: Client, upload: SimpleUploadedFile | None, game: str, field: str, reason: str
) -> None:
    data: dict[str, Any] = {"game": game}
    if upload is not None:
        data["file"] = upload
    response = staff_client.post(UPLOAD_URL, data)

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert reason in errors[field][0]
    assert reason.split(".")[0] in response.content.decode()
    assert not CatalogImportJob.objects.exists()


@pytest.mark.django_db
def test_a_file_over_the_limit_is_refused(staff_client: Client, settings: SettingsWrapper) -> None:
    settings.CATALOG_UPLOAD_MAX_BYTES = 32
    response = staff_client.post(UPLOAD_URL, {"file": csv_file(GOOD_CSV)})
    assert response.status_code == 400
    assert "the limit is 32" in response.context["form"].errors["file"][0]
    assert not CatalogImportJob.objects.exists()


@pytest.mark.django_db
def test_a_good_upload_creates_a_queued_job_and_enqueues_it_after_commit(
    staff_client: Client,
    staff: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = staff_client.post(
            UPLOAD_URL, {"file": csv_file("\ufeff" + GOOD_CSV), "game": "monster-hunter"}
        )

    job = CatalogImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == status_url(job)
    assert (job.status, job.stage, job.progress) == ("queued", "queued", 0)
    assert job.uploaded_by == staff
    assert job.file_name == "armor.csv"
    assert job.game == "monster-hunter"
    assert job.content == GOOD_CSV  # the byte order mark is gone
    assert len(callbacks) == 1


# --- the status page ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_unfinished_job_polls_every_second(staff_client: Client) -> None:
    job = make_job(status="running", stage="validating", progress=35)
    page = staff_client.get(status_url(job)).content.decode()
    assert 'aria-valuenow="35"' in page
    assert "<html" in page

    fragment = staff_client.get(status_url(job), headers={"HX-Request": "true"})
    body = fragment.content.decode()
    assert fragment.status_code == 200
    assert "<html" not in body
    assert 'hx-trigger="every 1s"' in body
    assert "width: 35%" in body

    restore = staff_client.get(
        status_url(job), headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )
    assert "<html" in restore.content.decode()


@pytest.mark.django_db
def test_a_finished_job_stops_polling_and_shows_its_outcome(staff_client: Client) -> None:
    done = make_job(status="succeeded", stage="done", progress=100, summary="cards 2 new")
    failed = make_job(
        status="failed",
        stage="done",
        progress=100,
        problems=[{"where": "armor.csv:3", "message": "attribute 'defence': too low"}],
    )
    for job, text in ((done, "cards 2 new"), (failed, "armor.csv:3")):
        body = staff_client.get(status_url(job), headers={"HX-Request": "true"}).content.decode()
        assert "hx-trigger" not in body
        assert "hx-get" not in body
        assert text in body
    assert "attribute &#x27;defence&#x27;: too low" in (
        staff_client.get(status_url(failed)).content.decode()
    )


@pytest.mark.django_db
def test_an_unknown_job_is_a_404(staff_client: Client) -> None:
    assert staff_client.get("/catalog-imports/999999/").status_code == 404


# --- the service the task calls -----------------------------------------------------------------


@pytest.mark.django_db
def test_running_a_job_imports_the_file_and_ends_at_100(mh_set: CardSet) -> None:
    job = make_job(game="monster-hunter")
    catalog_import_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.stage, job.progress) == ("succeeded", "done", 100)
    assert "cards 2 new" in job.summary
    assert job.started_at is not None and job.finished_at is not None
    assert Card.objects.get(code="demo-mail").name_en == "Demo Mail, Heavy"


@pytest.mark.django_db
def test_a_job_for_a_missing_row_or_a_finished_job_does_nothing(mh_set: CardSet) -> None:
    assert catalog_import_job_run(job_id=999_999) is None
    job = make_job(game="monster-hunter", status="failed", stage="done", progress=100)
    catalog_import_job_run(job_id=job.pk)
    assert not Card.objects.exists()


# --- a real Celery worker -----------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_imports_an_uploaded_csv(
    running_worker: None, staff_client: Client, mh_set: CardSet
) -> None:
    response = staff_client.post(UPLOAD_URL, {"file": csv_file(GOOD_CSV), "game": "monster-hunter"})
    assert response.status_code == 302

    job = wait_until_finished(CatalogImportJob.objects.get().pk)

    assert (job.status, job.stage, job.progress) == ("succeeded", "done", 100)
    assert job.problems == []
    assert set(Card.objects.values_list("code", flat=True)) == {"demo-armor", "demo-mail"}
    assert Printing.objects.filter(card_set=mh_set).count() == 2
    fragment = staff_client.get(response["Location"], headers={"HX-Request": "true"})
    assert "hx-trigger" not in fragment.content.decode()
    assert "cards 2 new" in fragment.content.decode()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_fails_a_bad_file_with_every_problem_and_writes_nothing(
    running_worker: None, staff_client: Client, mh_set: CardSet
) -> None:
    response = staff_client.post(UPLOAD_URL, {"file": csv_file(BAD_CSV), "game": "monster-hunter"})
    assert response.status_code == 302

    job = wait_until_finished(CatalogImportJob.objects.get().pk)

    assert (job.status, job.progress) == ("failed", 100)
    wheres = [problem["where"] for problem in job.problems]
    assert wheres == ["armor.csv:3", "armor.csv:4"]
    assert "attribute 'defence'" in job.problems[0]["message"]
    assert not Card.objects.exists()
    assert not Printing.objects.exists()
    page = staff_client.get(response["Location"]).content.decode()
    assert "armor.csv:4" in page
    assert "hx-trigger" not in page
