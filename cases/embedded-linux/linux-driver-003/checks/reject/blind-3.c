/* defect: init arms the timer before allocating the workqueue and, when alloc_workqueue() fails, returns -ENOMEM with the timer still armed (callback in freed module text, NULL workqueue).
 * breaks: "If setting anything up fails, the load fails with a suitable error code and leaves nothing behind."
 * must_fail: timer_armed_after_queue_ready
 */
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/atomic.h>

#define SAMPLER_PERIOD_MS	100
#define SAMPLER_LOG_EVERY	10

static struct workqueue_struct *sampler_wq;
static struct timer_list sampler_timer;
static struct work_struct sampler_work;

static atomic_long_t sampler_ticks = ATOMIC_LONG_INIT(0);
static bool sampler_stopping;

static DEFINE_MUTEX(sampler_lock);
static unsigned long sampler_processed;

static void sampler_process(struct work_struct *work)
{
	mutex_lock(&sampler_lock);
	sampler_processed++;
	if (sampler_processed % SAMPLER_LOG_EVERY == 0)
		pr_info("sampler: processed %lu (ticks %ld)\n",
			sampler_processed, atomic_long_read(&sampler_ticks));
	mutex_unlock(&sampler_lock);
}

static void sampler_timer_fn(struct timer_list *t)
{
	atomic_long_inc(&sampler_ticks);
	if (sampler_wq)
		queue_work(sampler_wq, &sampler_work);

	if (!READ_ONCE(sampler_stopping))
		mod_timer(&sampler_timer,
			  jiffies + msecs_to_jiffies(SAMPLER_PERIOD_MS));
}

static int __init sampler_init(void)
{
	INIT_WORK(&sampler_work, sampler_process);
	WRITE_ONCE(sampler_stopping, false);
	timer_setup(&sampler_timer, sampler_timer_fn, 0);
	mod_timer(&sampler_timer, jiffies + msecs_to_jiffies(SAMPLER_PERIOD_MS));

	sampler_wq = alloc_workqueue("sampler_wq", 0, 0);
	if (!sampler_wq) {
		pr_err("sampler: cannot allocate workqueue\n");
		return -ENOMEM;
	}

	pr_info("sampler: loaded\n");
	return 0;
}

static void __exit sampler_exit(void)
{
	WRITE_ONCE(sampler_stopping, true);
	del_timer_sync(&sampler_timer);
	cancel_work_sync(&sampler_work);
	destroy_workqueue(sampler_wq);

	pr_info("sampler: unloaded\n");
}

module_init(sampler_init);
module_exit(sampler_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Periodic timer sampler deferring sleepable work to a dedicated workqueue");
