#!/usr/bin/env python3
"""Drives gstplay's web remote page in headless Chromium (Debian's chromium + chromium-driver,
Selenium from the test venv) for Tests/gstplayTests/RemoteBrowserTests.swift.

  remote_browser.py URL OUTDIR   (URL: http://127.0.0.1:PORT/#token=...)

Steps, each printed as one JSON line on stdout as it is done:
  desktop (1280x800): page up and playing, screenshot, position text changes, screenshot,
  hovering the seek bar at 25 % loads a thumbnail preview;
  phone (375x667): screenshot; click pause; drag the seek bar from its start to its middle;
  no token: the page reports 401 and every control is disabled.
"""
import json, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def say(**fields):
    print(json.dumps(fields), flush=True)


def viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def main():
    url, outdir = sys.argv[1], sys.argv[2]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(driver, 20, poll_frequency=0.05)
    try:
        viewport(driver, 1280, 800, False)
        driver.get(url)
        wait.until(lambda d: text(d, "state") == "playing" and text(d, "position") not in ("", "0:00"))
        first = text(driver, "position")
        driver.save_screenshot(f"{outdir}/desktop-1.png")
        wait.until(lambda d: text(d, "position") != first)
        second = text(driver, "position")
        driver.save_screenshot(f"{outdir}/desktop-2.png")
        say(step="desktop", first=first, second=second, title=text(driver, "title"),
            queue=len(driver.find_elements(By.CSS_SELECTOR, "#queue li")))

        seek = driver.find_element(By.ID, "seek")
        ActionChains(driver).move_to_element_with_offset(seek, -seek.size["width"] // 4, 0).perform()
        wait.until(lambda d: d.execute_script("return document.getElementById('previewimg').naturalWidth") > 0)
        say(step="hover", preview_width=driver.execute_script("return document.getElementById('previewimg').naturalWidth"),
            preview_time=text(driver, "previewtime"))

        viewport(driver, 375, 667, True)
        time.sleep(0.3)  # one layout pass at the new size (no event tells it)
        driver.save_screenshot(f"{outdir}/phone.png")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        say(step="phone", scroll_width=width)

        driver.find_element(By.ID, "playpause").click()
        wait.until(lambda d: text(d, "state") == "paused")
        say(step="paused")

        seek = driver.find_element(By.ID, "seek")
        size = seek.size
        ActionChains(driver).move_to_element_with_offset(seek, -size["width"] // 2 + 2, 0).click_and_hold() \
            .move_to_element(seek).release().perform()
        wait.until(lambda d: abs(int(seek.get_attribute("value")) - 500) <= 30)
        say(step="dragged", value=int(seek.get_attribute("value")))

        viewport(driver, 1280, 800, False)
        driver.get(url.split("#")[0])
        wait.until(lambda d: "401" in text(d, "notice"))
        disabled = driver.execute_script(
            "return [...document.querySelectorAll('button,select,input')].every(c => c.disabled)")
        driver.save_screenshot(f"{outdir}/no-token.png")
        say(step="no-token", notice=text(driver, "notice"), all_disabled=disabled)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
