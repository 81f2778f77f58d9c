/* defect: the timer callback (softirq context) takes the sleeping stats mutex to count the tick, which is sleeping in atomic context.
 * breaks: "The module is loaded and unloaded in a loop by a stress rig on an SMP machine with lockdep and "sleeping in atomic context" debugging enabled; any splat, oops or hang fails the rig."
 * must_fail: timer_callback_atomic_safe
 */
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>

#define SAMPLER_PERIOD_MS	100
#define SAMPLER_LOG_EVERY	10

static struct workqueue_struct *sampler_wq;
static struct timer_list sampler_timer;
static struct work_struct sampler_work;
static bool sampler_stopping;

/* Sample statistics, protected by sampler_lock. */
static DEFINE_MUTEX(sampler_lock);
static unsigned long sampler_ticks;
static unsigned long sampler_processed;

static void sampler_process(struct work_struct *work)
{
	mutex_lock(&sampler_lock);
	sampler_processed++;
	if (sampler_processed % SAMPLER_LOG_EVERY == 0)
		pr_info("sampler: processed %lu (ticks %lu)\n",
			sampler_processed, sampler_ticks);
	mutex_unlock(&sampler_lock);
}

static void sampler_timer_fn(struct timer_list *t)
{
	mutex_lock(&sampler_lock);
	sampler_ticks++;
	mutex_unlock(&sampler_lock);

	queue_work(sampler_wq, &sampler_work);

	if (!READ_ONCE(sampler_stopping))
		mod_timer(&sampler_timer,
			  jiffies + msecs_to_jiffies(SAMPLER_PERIOD_MS));
}

static int __init sampler_init(void)
{
	sampler_wq = alloc_workqueue("sampler_wq", 0, 0);
	if (!sampler_wq)
		return -ENOMEM;

	INIT_WORK(&sampler_work, sampler_process);
	WRITE_ONCE(sampler_stopping, false);
	timer_setup(&sampler_timer, sampler_timer_fn, 0);
	mod_timer(&sampler_timer, jiffies + msecs_to_jiffies(SAMPLER_PERIOD_MS));

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
